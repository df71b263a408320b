// One control per parameter kind, built from the parameter as the server's hello declares it: a slider
// for a number, a menu for a choice, a toggle for a flag, a colour well for a colour, two sliders for a
// point, a file picker for an image. What a control changes goes to the `set` it is given (stages.js
// binds it to the recipe).

import { setBusy, showNotice } from "./view.js";

/// A labelled row for `parameter` of stage `stageName`, showing `value`; `current()` is the value in
/// force (a number typed out of range goes back to it), `set(next, soon)` takes a new one (`soon`: while
/// a slider moves), and `previews` keeps the pictures chosen for image parameters by "stage.parameter".
export function parameterControl(stageName, parameter, { value, current, set, previews }) {
  const row = document.createElement("label");
  row.className = "parameter";
  row.title = parameter.help || "";
  const caption = document.createElement("span");
  caption.textContent = parameter.title;
  row.append(caption);
  const mark = (input) => {
    input.dataset.stage = stageName;
    input.dataset.parameter = parameter.name;
    return input;
  };

  switch (parameter.kind) {
    case "number": {
      const slider = mark(document.createElement("input"));
      slider.type = "range";
      const box = document.createElement("input");
      box.type = "number";
      for (const input of [slider, box]) {
        input.min = parameter.minimum;
        input.max = parameter.maximum;
        input.step = parameter.step;
        input.value = value;
      }
      box.setAttribute("aria-label", parameter.title);
      slider.addEventListener("input", () => { box.value = slider.value; set(Number(slider.value), true); });
      box.addEventListener("change", () => {
        const number = Number(box.value);
        if (box.value === "" || !Number.isFinite(number)) { box.value = current(); return; }
        slider.value = box.value;
        set(number, false);  // out of range: the server says what is allowed
      });
      row.append(box, slider);
      break;
    }
    case "choice": {
      const menu = mark(document.createElement("select"));
      for (const option of parameter.options) menu.add(new Option(option.title, option.value));
      menu.value = value;
      menu.addEventListener("change", () => set(menu.value, false));
      row.append(menu);
      break;
    }
    case "flag": {
      const box = mark(document.createElement("input"));
      box.type = "checkbox";
      box.checked = Boolean(value);
      box.addEventListener("change", () => set(box.checked, false));
      row.append(box);
      break;
    }
    case "colour": {
      const well = mark(document.createElement("input"));
      well.type = "color";
      well.value = value;
      well.addEventListener("input", () => set(well.value, true));
      row.append(well);
      break;
    }
    case "point": {
      const [x, y] = Array.isArray(value) ? value : [0.5, 0.5];
      const sliders = [x, y].map((coordinate, axis) => {
        const slider = mark(document.createElement("input"));
        slider.type = "range";
        slider.min = 0;
        slider.max = 1;
        slider.step = 0.01;
        slider.value = coordinate;
        slider.setAttribute("aria-label", `${parameter.title} ${axis ? "y" : "x"}`);
        return slider;
      });
      const update = () => set(sliders.map((slider) => Number(slider.value)), true);
      sliders.forEach((slider) => slider.addEventListener("input", update));
      row.append(...sliders);
      break;
    }
    case "image": {
      // The picture itself shows beside the picker: it says more than a file name.
      const key = `${stageName}.${parameter.name}`;
      const preview = document.createElement("img");
      preview.className = "picture-preview";
      preview.alt = `${parameter.title} chosen`;
      preview.hidden = !previews[key];
      if (previews[key]) preview.src = previews[key];
      const picker = mark(document.createElement("input"));
      picker.type = "file";
      picker.accept = "image/*";
      picker.addEventListener("change", () => uploadImage(picker.files[0], (id) => {
        if (previews[key]) URL.revokeObjectURL(previews[key]);
        previews[key] = URL.createObjectURL(picker.files[0]);
        preview.src = previews[key];
        preview.hidden = false;
        set(id, false);
      }));
      row.append(picker, preview);
      break;
    }
    case "trainingList": {
      // The studio names one list, its own ("default"): on, or off for boxes only.
      const box = mark(document.createElement("input"));
      box.type = "checkbox";
      box.checked = value === "default";
      box.title = "Name and count every object with the studio's training list";
      box.addEventListener("change", () => set(box.checked ? "default" : null, false));
      row.append(box);
      break;
    }
    default: {
      const unknown = document.createElement("span");
      unknown.textContent = `(${parameter.kind}: not settable here)`;
      row.append(unknown);
    }
  }
  return row;
}

/// Uploads a picture for an image parameter; the server answers its id.
export async function uploadImage(file, use) {
  if (!file) return;
  setBusy("Uploading the picture…");
  try {
    const response = await fetch("api/sources", { method: "POST", body: file, headers: { "Content-Type": file.type || "application/octet-stream" } });
    if (!response.ok) {
      const text = (await response.text()).trim();
      let reason = text || response.statusText;
      try { reason = JSON.parse(text).error ?? reason; } catch { /* not JSON: the text itself */ }
      throw new Error(reason);
    }
    const { id } = await response.json();
    use(id);
  } catch (error) {
    showNotice(`The picture could not be uploaded: ${error.message}`, "error");
  } finally {
    setBusy("");
  }
}
