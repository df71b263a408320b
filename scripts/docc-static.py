#!/usr/bin/env python3
"""Plain HTML pages from a DocC archive's render data, for reading from disk.

DocC's own site is a JavaScript app that fetches its pages' data from a web server, so it shows nothing when
opened as a file. This renders the same data (ARCHIVE/data/documentation/**/*.json: the articles, every
symbol's declaration, discussion, parameters and topics) into one static page per node with relative links
only, which any browser opens from disk.

    scripts/docc-static.py ARCHIVE OUTPUT
"""
import html
import json
import os
import sys
from pathlib import Path
from urllib.parse import quote

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 0 20px 60px; color: #1d1d1f; }
nav.path { font-size: 14px; padding: 14px 0; color: #666; }
nav.path a { color: #666; }
.role { color: #888; font-size: 14px; margin: 18px 0 0; }
h1 { margin: 2px 0 8px; }
.abstract { font-size: 19px; color: #333; }
pre { background: #f4f4f6; padding: 10px 12px; border-radius: 6px; overflow-x: auto; font-size: 14px; }
pre.declaration { font-size: 15px; }
code { font-size: 0.92em; }
h2 { margin-top: 36px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
ul.topics { list-style: none; padding-left: 0; }
ul.topics li { margin: 0 0 12px; }
ul.topics .summary { color: #444; font-size: 15px; }
dl.parameters dt { font-family: monospace; font-weight: bold; }
dl.parameters dd { margin: 0 0 8px 20px; }
.aside { border-left: 4px solid #8ab; background: #f2f7f9; padding: 6px 12px; margin: 12px 0; }
table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: 4px 8px; }
.kw { color: #ad3da4; } .type { color: #703daa; }
"""


class Site:
    def __init__(self, archive, output):
        self.data = archive / "data"
        self.output = output
        # The archive keeps the articles' pictures (images/…); the static pages show them from there.
        self.archive_from_output = os.path.relpath(archive, output)

    def page_path(self, url):
        """The file of a DocC url such as /documentation/ocular/image (fragments kept apart)."""
        url, _, fragment = url.partition("#")
        return url.strip("/") + ".html", fragment

    def link(self, from_page, url):
        target, fragment = self.page_path(url)
        relative = os.path.relpath(target, os.path.dirname(from_page) or ".")
        address = "./" + quote(relative, safe="/().,-_~")
        return address + ("#" + quote(fragment) if fragment else "")

    # Inline content

    def inline(self, items, node, page):
        return "".join(self.inline_one(item, node, page) for item in items or [])

    def inline_one(self, item, node, page):
        kind = item.get("type")
        if kind == "text":
            return html.escape(item["text"])
        if kind == "codeVoice":
            return f"<code>{html.escape(item['code'])}</code>"
        if kind in ("emphasis", "newTerm"):
            return f"<em>{self.inline(item.get('inlineContent'), node, page)}</em>"
        if kind in ("strong", "inlineHead"):
            return f"<strong>{self.inline(item.get('inlineContent'), node, page)}</strong>"
        if kind == "reference":
            reference = node["references"].get(item["identifier"], {})
            title = reference.get("title") or item["identifier"].rsplit("/", 1)[-1]
            content = self.inline(item.get("overridingTitleInlineContent"), node, page) or html.escape(title)
            if reference.get("kind") == "symbol":
                content = f"<code>{content}</code>"
            url = reference.get("url")
            if not url:
                return content
            if url.startswith("http") or reference.get("type") == "link":
                return f'<a href="{html.escape(url)}">{content}</a>'
            return f'<a href="{self.link(page, url)}">{content}</a>'
        if kind == "link":
            return f'<a href="{html.escape(item["destination"])}">{html.escape(item.get("title", item["destination"]))}</a>'
        if kind == "image":
            reference = node["references"].get(item["identifier"], {})
            variants = reference.get("variants") or []
            if not variants:
                return ""
            source = os.path.relpath(os.path.join(self.archive_from_output, variants[0]["url"].lstrip("/")),
                                     os.path.dirname(page) or ".")
            alt = reference.get("alt") or ""
            return f'<img src="{quote(source, safe="/().,-_~")}" alt="{html.escape(alt)}" style="max-width: 100%">'
        if kind in ("superscript", "subscript", "strikethrough"):
            tag = {"superscript": "sup", "subscript": "sub", "strikethrough": "s"}[kind]
            return f"<{tag}>{self.inline(item.get('inlineContent'), node, page)}</{tag}>"
        return html.escape(item.get("text", ""))

    # Block content

    def blocks(self, items, node, page):
        return "".join(self.block(item, node, page) for item in items or [])

    def block(self, item, node, page):
        kind = item.get("type")
        if kind == "heading":
            level = min(max(item.get("level", 2), 2), 4)
            return f'<h{level} id="{html.escape(item.get("anchor", ""))}">{html.escape(item["text"])}</h{level}>\n'
        if kind == "paragraph":
            return f"<p>{self.inline(item.get('inlineContent'), node, page)}</p>\n"
        if kind == "codeListing":
            return f"<pre><code>{html.escape(chr(10).join(item.get('code', [])))}</code></pre>\n"
        if kind in ("unorderedList", "orderedList"):
            tag = "ul" if kind == "unorderedList" else "ol"
            return f"<{tag}>" + "".join(f"<li>{self.blocks(entry.get('content'), node, page)}</li>" for entry in item["items"]) + f"</{tag}>\n"
        if kind == "aside":
            name = item.get("name") or item.get("style", "").capitalize()
            return f'<div class="aside"><strong>{html.escape(name)}</strong>{self.blocks(item.get("content"), node, page)}</div>\n'
        if kind == "table":
            rows = []
            for index, row in enumerate(item.get("rows", [])):
                cell = "th" if index == 0 and item.get("header") == "row" else "td"
                rows.append("<tr>" + "".join(f"<{cell}>{self.blocks(content, node, page)}</{cell}>" for content in row) + "</tr>")
            return "<table>" + "".join(rows) + "</table>\n"
        if kind == "termList":
            return "<dl>" + "".join(f"<dt>{self.inline(entry['term']['inlineContent'], node, page)}</dt><dd>"
                                    f"{self.blocks(entry['definition']['content'], node, page)}</dd>" for entry in item["items"]) + "</dl>\n"
        return ""

    def tokens(self, tokens):
        out = []
        for token in tokens:
            text = html.escape(token["text"])
            if token["kind"] in ("keyword", "attribute"):
                text = f'<span class="kw">{text}</span>'
            elif token["kind"] == "typeIdentifier":
                text = f'<span class="type">{text}</span>'
            out.append(text)
        return "".join(out)

    def topic_list(self, identifiers, node, page):
        items = []
        for identifier in identifiers:
            reference = node["references"].get(identifier)
            if not reference or not reference.get("url"):
                continue
            title = self.tokens(reference["fragments"]) if reference.get("fragments") else html.escape(reference.get("title", ""))
            summary = self.inline(reference.get("abstract"), node, page)
            items.append(f'<li><a href="{self.link(page, reference["url"])}"><code>{title}</code></a>'
                         f'<div class="summary">{summary}</div></li>' if reference.get("kind") == "symbol" else
                         f'<li><a href="{self.link(page, reference["url"])}">{html.escape(reference.get("title", ""))}</a>'
                         f'<div class="summary">{summary}</div></li>')
        return '<ul class="topics">' + "".join(items) + "</ul>\n"

    def render(self, node, page):
        metadata = node.get("metadata", {})
        title = metadata.get("title", "")
        parts = [f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                 f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)} | Ocular</title>'
                 f"<style>{STYLE}</style></head><body>\n"]
        crumbs = []
        for path in (node.get("hierarchy", {}).get("paths") or [[]])[0]:
            reference = node["references"].get(path)
            if reference and reference.get("url"):
                crumbs.append(f'<a href="{self.link(page, reference["url"])}">{html.escape(reference.get("title", ""))}</a>')
        home = os.path.relpath("index.html", os.path.dirname(page) or ".")
        parts.append(f'<nav class="path"><a href="./{home}">Ocular docs</a> › ' + " › ".join(crumbs) + "</nav>\n")
        if metadata.get("roleHeading"):
            parts.append(f'<p class="role">{html.escape(metadata["roleHeading"])}</p>')
        parts.append(f"<h1>{html.escape(title)}</h1>\n")
        if node.get("abstract"):
            parts.append(f'<p class="abstract">{self.inline(node["abstract"], node, page)}</p>\n')
        for section in node.get("primaryContentSections", []):
            kind = section.get("kind")
            if kind == "declarations":
                for declaration in section["declarations"]:
                    parts.append(f'<pre class="declaration"><code>{self.tokens(declaration["tokens"])}</code></pre>\n')
            elif kind == "parameters":
                parts.append("<h2>Parameters</h2><dl class=\"parameters\">" + "".join(
                    f"<dt>{html.escape(parameter['name'])}</dt><dd>{self.blocks(parameter.get('content'), node, page)}</dd>"
                    for parameter in section["parameters"]) + "</dl>\n")
            elif kind == "content":
                parts.append(self.blocks(section.get("content"), node, page))
            elif kind == "properties":
                parts.append(f"<h2>{html.escape(section.get('title', 'Properties'))}</h2><dl class=\"parameters\">" + "".join(
                    f"<dt>{html.escape(item['name'])}</dt><dd>{self.blocks(item.get('content'), node, page)}</dd>"
                    for item in section.get("items", [])) + "</dl>\n")
        for heading, sections in (("Topics", node.get("topicSections", [])), ("Relationships", node.get("relationshipsSections", [])),
                                  ("See also", node.get("seeAlsoSections", []))):
            if not sections:
                continue
            parts.append(f"<h2>{heading}</h2>\n")
            for section in sections:
                if section.get("title"):
                    parts.append(f"<h3>{html.escape(section['title'])}</h3>\n")
                parts.append(self.topic_list(section.get("identifiers", []), node, page))
        parts.append("</body></html>\n")
        return "".join(parts)

    def build(self):
        count = 0
        for source in sorted(self.data.rglob("*.json")):
            node = json.loads(source.read_text(encoding="utf-8"))
            page = str(source.relative_to(self.data).with_suffix(".html"))
            target = self.output / page
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.render(node, page), encoding="utf-8")
            count += 1
        return count


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    archive, output = Path(sys.argv[1]), Path(sys.argv[2])
    count = Site(archive, output).build()
    print(f"docc-static: {count} pages in {output}")


if __name__ == "__main__":
    main()
