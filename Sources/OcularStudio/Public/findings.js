// What the recipe's stages found in the frame just shown, listed beside it. The server sends
// {"type": "annotations", "faces": [...], "blobs": [...], ...} with each frame (in its answer's header) while the recipe has a
// stage that declares annotations: one list per kind, under the kind's group, the recipe's kinds
// always listed (empty when none was found). Each group has a renderer here; a group this page has
// never heard of is listed by the generic one (its boxes, and its other plain fields), so a new
// detection stage shows its findings with no change to the page.
//
// Each finding is marked in the colour the frame shows it in.

/// A renderer says what a group is called and what a finding's row says.
/// @typedef {{heading: string, none: string, name: (finding: object) => string,
///   details: (finding: object) => string[]}} Renderer
/// A finding's colour is the one its stage marks it in on the frame (its "colour", from the server);
/// a finding without one is not marked by its stage, so the page draws its box, in its group's colour.

const capitalised = (text) => text ? text[0].toUpperCase() + text.slice(1) : text;

/// Where a finding is, when it has a box: "88×88 at (59, 63)".
function where(finding) {
  if (!Array.isArray(finding.bounds) || finding.bounds.length !== 4) return null;
  const [x, y, width, height] = finding.bounds;
  return `${width}×${height} at (${x}, ${y})`;
}

/// @type {Object<string, Renderer>}
export const RENDERERS = {
  faces: {
    heading: "Faces in the frame",
    none: "No face in this frame.",
    name: (face) => capitalised(face.species),
    details: (face) => {
      const details = [where(face)];
      if (face.species === "human") {
        details.push(face.smile ? "smiling" : face.mouth ? "not smiling" : "no mouth found");
        details.push(`tilted ${face.angle}°`);
      }
      return details;
    },
  },
  blobs: {
    heading: "Objects in the frame",
    none: "No object in this frame.",
    // A blob is named once classified (it then has a description); label 0 is "unidentified".
    name: (blob) => (!("description" in blob) ? "Object" : blob.label > 0 ? capitalised(blob.description.split(",")[0]) : "Unidentified"),
    details: (blob) => [where(blob)],
  },
  counts: {
    heading: "Count",
    none: "Nothing counted yet.",
    name: (tally) => (tally.count ? tally.text : "Nothing counted yet"),
    details: () => [],
  },
};

/// The colour a group's unmarked findings are boxed in by the page, the same on every frame.
function colourOf(group) {
  let hash = 0;
  for (const character of group) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360}, 80%, 60%)`;
}

/// The generic renderer: the group's name, each finding's box and its other plain fields.
function genericRenderer(group) {
  const kind = capitalised(group.replace(/s$/, ""));
  return {
    heading: `${capitalised(group)} in the frame`,
    none: `No ${group} in this frame.`,
    name: (finding) => capitalised(typeof finding.name === "string" ? finding.name : kind),
    details: (finding) => [where(finding), ...Object.entries(finding)
      .filter(([key, value]) => !["bounds", "name", "colour"].includes(key) && ["number", "string", "boolean"].includes(typeof value))
      .map(([key, value]) => `${key} ${typeof value === "number" ? Math.round(value * 100) / 100 : value}`)],
  };
}

export const rendererFor = (group) => RENDERERS[group] ?? genericRenderer(group);

/// The colour a finding is shown in: its stage's mark, else its group's where the page draws its box;
/// null for a finding drawn nowhere (a count).
const colourFor = (group, finding) => finding.colour ?? (where(finding) ? colourOf(group) : null);

/// The findings of the last annotations message, by group, and how many messages came.
export const findings = { groups: {}, received: 0 };

/// Lists the findings of one annotations message in `section`: one list per group (id GROUP-list),
/// in the order the server sent them.
/// @param {HTMLElement} section
/// @param {object} message The annotations message.
export function showFindings(section, message) {
  const groups = Object.fromEntries(Object.entries(message).filter(([key, value]) => key !== "type" && Array.isArray(value)));
  findings.groups = groups;
  section.hidden = false;
  const lists = Object.entries(groups).map(([group, found]) => {
    const renderer = rendererFor(group);
    const block = document.createElement("section");
    block.className = "finding-group";
    block.dataset.group = group;
    const heading = document.createElement("h2");
    heading.textContent = renderer.heading;
    const list = document.createElement("ul");
    list.id = `${group}-list`;
    list.className = "findings-list";
    const rows = found.map((finding) => {
      const item = document.createElement("li");
      if (finding.species) item.dataset.species = finding.species;
      const colour = colourFor(group, finding);
      if (colour) item.style.setProperty("--finding-colour", colour);
      const name = document.createElement("b");
      name.textContent = renderer.name(finding);
      const details = renderer.details(finding).filter(Boolean).join(" · ");
      item.append(name, details ? ` ${details}` : "");
      return item;
    });
    if (!rows.length) {
      const none = document.createElement("li");
      none.className = "hint";
      none.textContent = renderer.none;
      rows.push(none);
    }
    list.replaceChildren(...rows);
    block.append(heading, list);
    return block;
  });
  section.replaceChildren(...lists);
}

/// Draws the boxes of the groups whose stage does not draw them on `canvas` (the frame they were
/// found in), each in its group's colour, with its name.
/// @param {HTMLCanvasElement} canvas
/// @param {Object<string, object[]>} groups
export function drawFindings(canvas, groups) {
  const context = canvas.getContext("2d");
  const line = Math.max(2, Math.round(Math.min(canvas.width, canvas.height) / 240));
  context.save();
  context.lineWidth = line;
  context.font = `${line * 7}px sans-serif`;
  context.textBaseline = "bottom";
  for (const [group, found] of Object.entries(groups)) {
    const renderer = rendererFor(group);
    for (const finding of found) {
      // Marked by its stage already, or nowhere to draw.
      if (finding.colour || !where(finding)) continue;
      const [x, y, width, height] = finding.bounds;
      context.strokeStyle = context.fillStyle = colourFor(group, finding);
      context.strokeRect(x + line / 2, y + line / 2, width - line, height - line);
      context.fillText(renderer.name(finding), x + line * 2, Math.max(line * 8, y + line * 9));
    }
  }
  context.restore();
}

/// Hides the findings, and forgets them.
export function hideFindings(section) {
  section.hidden = true;
  section.replaceChildren();
  findings.groups = {};
}
