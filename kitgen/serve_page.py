"""The page of ``kitgen serve`` (docs/design.md §11): server-rendered HTML, a little plain JavaScript
(``SCRIPT``, served as /app.js) and a style sheet; nothing is fetched from anywhere but the server.
Every field is named as ``kitgen build``'s option, so the page sends what ``POST /build`` takes."""

import re
from html import escape

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="kitgen-form" content="{form}">
<title>kitgen: make a printable kit</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<main>
<h1>Make a printable kit</h1>
<form id="kit-form" novalidate>
<fieldset>
<legend>What to make</legend>
{kinds}</fieldset>

<fieldset data-kind="{upload-words}"{hidden-upload-words}>
<legend>Your words</legend>
<label for="words">Paste words, one a line (at least 25)</label>
<textarea id="words" rows="8" autocomplete="off" spellcheck="false"></textarea>
<label for="kit-name">Name of the kit (for pasted words)</label>
<input id="kit-name" type="text" value="my-words" autocomplete="off">
<label for="deck-file">Or upload a deck: a text, CSV or YAML file</label>
<input id="deck-file" type="file" accept=".txt,.csv,.yaml,.yml">
</fieldset>

<fieldset data-kind="{upload-pictures}"{hidden-upload-pictures}>
<legend>Your pictures</legend>
<label for="picture-files">Upload pictures (PNG, JPEG, SVG; at least 20), several files or one zip</label>
<input id="picture-files" type="file" multiple accept=".png,.jpg,.jpeg,.svg,.zip,.yaml,.yml">
</fieldset>

<fieldset data-kind="{builtin}"{hidden-builtin}>
<legend>Or a deck that comes with kitgen</legend>
<label for="builtin">Built-in or classroom deck</label>
<select id="builtin"><option value="">(none: use mine above)</option>{decks}</select>
</fieldset>

<fieldset>
<legend>Printing</legend>
<label for="lang">Language of the labels</label>
<select id="lang" name="lang"><option value="">the deck's</option>{languages}</select>
<div data-kind="{paper}"{hidden-paper}>
<label for="paper">Paper</label>
<select id="paper" name="paper"><option value="">A4</option><option value="letter">US Letter</option></select>
<label for="duplex">Double-sided printing</label>
<select id="duplex" name="duplex"><option value="">flip on the long edge</option>
<option value="short">flip on the short edge</option><option value="none">one side only</option>
<option value="fold">one side, fold each sheet</option></select>
</div>
<label class="inline"><input id="ink" name="ink" type="checkbox" value="saver"> Ink saver (for black and white
printers)</label>
{families}<label for="seed">Seed (the same seed gives the same keys; leave empty for the kit's own)</label>
<input id="seed" name="seed" type="text" autocomplete="off">
</fieldset>

<div class="buttons">
<button type="button" id="check" data-kind="{check}"{hidden-check}>Check the deck</button>
<button type="submit" id="build">Build the kit</button>
</div>
</form>

<section aria-labelledby="result-title">
<h2 id="result-title">Result</h2>
<p id="status" role="status" aria-live="polite">Choose what to make, give the content, then check and build.</p>
<progress id="progress" hidden>building</progress>
<ul id="checks"></ul>
<table id="words-checked" hidden><caption>Your words and what the check says of them</caption>
<thead><tr><th scope="col">word</th><th scope="col">line</th><th scope="col">check</th></tr></thead><tbody></tbody>
</table>
<ul id="pictures-checked" hidden aria-label="Your pictures and what the check says of them"></ul>
<div id="downloads"></div>
<div id="previews"></div>
</section>
</main>
</body>
</html>
"""

SCRIPT = r"""'use strict';
const $ = (id) => document.getElementById(id);

function chosen() { return document.querySelector('input[name=kind]:checked'); }
function kind() { return chosen().value; }

function showKind() {
  for (const part of document.querySelectorAll('[data-kind]')) {
    part.hidden = !part.dataset.kind.split(' ').includes(kind());
  }
}

function formData() {
  // what the chosen kind sends (its game's declaration, docs/design.md §2.5), then the options on show
  const data = new FormData();
  const add = (name, value) => { if (value !== '' && value != null) data.append(name, value); };
  const k = chosen();
  if (k.dataset.make) add('make', k.dataset.make);
  for (const [name, value] of JSON.parse(k.dataset.sends)) {
    add(name, value.startsWith('#') ? $(value.slice(1)).value : value);      // '#id': that element's value
  }
  let given = false;
  if (k.dataset.upload === 'words') {
    if ($('words').value.trim()) { add('words', $('words').value); add('name', $('kit-name').value); given = true; }
    for (const file of $('deck-file').files) { data.append('deck', file); given = true; }
  } else if (k.dataset.upload === 'pictures') {
    for (const file of $('picture-files').files) { data.append('deck', file); given = true; }
  }
  if (k.dataset.builtin && !given) add('deck', $('builtin').value);
  // each field on show is kitgen's option of the same name
  for (const field of document.querySelectorAll('#kit-form [name]')) {
    if (field.name !== 'kind' && field.type !== 'checkbox' && !field.closest('[hidden]')) add(field.name, field.value);
  }
  if ($('ink').checked) add('ink', 'saver');
  return data;
}

function send(path, body) {
  // every POST carries the page's form token, which only this page holds (docs/design.md §11)
  const token = document.querySelector('meta[name=kitgen-form]').content;
  return fetch(path, {method: 'POST', body: body, headers: {'X-Kitgen-Form': token}});
}

function say(text, alert) {
  const status = $('status');
  status.textContent = text;
  status.setAttribute('role', alert ? 'alert' : 'status');
}

async function answer(response) {
  let body = {};
  try { body = await response.json(); } catch (e) { body = {error: 'the server answered ' + response.status}; }
  if (!response.ok) throw new Error(body.error || ('the server answered ' + response.status));
  return body;
}

function noteLine(note) {
  const line = document.createElement('span');
  line.className = note.status.toLowerCase();
  line.textContent = note.status + ' ' + note.text;
  return line;
}

function entryNotes(result) {
  // each word or picture beside what the check says of it: words with a remark in a table,
  // every picture as a thumbnail (those with a remark first)
  const table = $('words-checked'), body = table.querySelector('tbody'), gallery = $('pictures-checked');
  body.textContent = ''; gallery.textContent = '';
  const noted = result.entries.filter((e) => e.notes.some((n) => n.status !== 'OK'));
  if (result.kind === 'pictures') {
    for (const entry of [...noted, ...result.entries.filter((e) => !noted.includes(e))]) {
      const figure = document.createElement('figure');
      if (entry.thumbnail) {
        const image = document.createElement('img');
        image.src = entry.thumbnail; image.alt = entry.name;
        figure.appendChild(image);
      }
      const caption = document.createElement('figcaption');
      caption.textContent = entry.name;
      for (const note of entry.notes) caption.append(document.createElement('br'), noteLine(note));
      figure.appendChild(caption);
      const item = document.createElement('li');
      item.appendChild(figure);
      gallery.appendChild(item);
    }
  } else {
    // a word's script and font (a NOTE) is shown only where the word mixes scripts
    const remarks = (e) => e.notes.filter((n) => n.status !== 'NOTE' || n.text.includes(';'));
    for (const entry of result.entries.filter((e) => remarks(e).length)) {
      const row = body.insertRow();
      row.insertCell().textContent = entry.name;
      row.insertCell().textContent = entry.line == null ? '' : entry.line;
      const notes = row.insertCell();
      remarks(entry).forEach((note, i) => { if (i) notes.append('; '); notes.appendChild(noteLine(note)); });
    }
  }
  table.hidden = !body.rows.length;
  gallery.hidden = !gallery.children.length;
}

async function check() {
  $('checks').textContent = '';
  say('Checking…');
  try {
    const result = await answer(await send('/check', formData()));
    for (const line of result.lines) {
      const item = document.createElement('li');
      item.className = line.status.toLowerCase();
      item.textContent = line.status + ' ' + line.text;
      $('checks').appendChild(item);
    }
    entryNotes(result);
    say(result.ok ? 'Every check passed: ready to build.' : 'Some checks failed: see below.', !result.ok);
  } catch (err) { say(err.message, true); }
}

function link(href, text) {
  const a = document.createElement('a');
  a.href = href; a.textContent = text;
  return a;
}

function showKit(key, state) {
  const list = document.createElement('ul');
  const base = '/jobs/' + encodeURIComponent(key);
  for (const file of state.files) {
    if (file.name.includes('/') || !/\.(pdf|html|md|txt|bbcode)$/.test(file.name)) continue;
    const item = document.createElement('li');
    item.appendChild(link(base + '/files/' + encodeURIComponent(file.name), 'Download ' + file.name));
    item.append(' (' + Math.max(1, Math.round(file.bytes / 1024)) + ' KiB)');
    list.appendChild(item);
  }
  const all = document.createElement('li');
  all.appendChild(link(base + '/kit.zip', 'Download everything as ' + state.kit + '.zip'));
  list.appendChild(all);
  $('downloads').textContent = '';
  $('downloads').appendChild(list);
  showPreviews(key, state.previews);
}

function showPreviews(key, parts) {
  // each part's first sheet, as soon as it is drawn
  const base = '/jobs/' + encodeURIComponent(key);
  for (const part of parts.slice($('previews').children.length)) {
    const figure = document.createElement('figure');
    const image = document.createElement('img');
    image.src = base + '/previews/' + encodeURIComponent(part);
    image.alt = 'the first sheet of ' + part;
    const caption = document.createElement('figcaption');
    caption.textContent = part;
    figure.append(image, caption);
    $('previews').appendChild(figure);
  }
}

async function build(event) {
  event.preventDefault();
  $('downloads').textContent = ''; $('previews').textContent = '';
  $('build').disabled = true;
  $('progress').removeAttribute('value');
  $('progress').hidden = false;
  say('Sending…');
  try {
    const started = await answer(await send('/jobs', formData()));
    for (;;) {
      const state = await answer(await fetch('/jobs/' + encodeURIComponent(started.job)));
      if (state.state === 'failed') throw new Error(state.error);
      if (state.state === 'done') {
        showKit(started.job, state);
        say('Done: ' + state.kit + ' is ready.' + (state.warnings.length ? ' ' + state.warnings.join(' ') : ''));
        break;
      }
      const bar = $('progress');
      if (state.of) { bar.max = state.of; bar.value = state.pages; } else bar.removeAttribute('value');
      showPreviews(started.job, state.previews);
      say(state.step + '… ' + (state.of ? state.pages + ' of ' + state.of + ' pages, ' : '') + state.seconds + ' s');
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  } catch (err) { say(err.message, true); }
  $('build').disabled = false;
  $('progress').hidden = true;
}

document.addEventListener('DOMContentLoaded', () => {
  for (const radio of document.querySelectorAll('input[name=kind]')) radio.addEventListener('change', showKind);
  $('check').addEventListener('click', check);
  $('kit-form').addEventListener('submit', build);
  $('kit-form').addEventListener('change', () => {     // what the check said was of the deck before
    $('checks').textContent = ''; $('words-checked').hidden = true; $('pictures-checked').hidden = true;
  });
  showKind();
});
"""

STYLE = """body { font-family: system-ui, sans-serif; margin: 0; line-height: 1.4; }
main { max-width: 42rem; margin: 0 auto; padding: 1rem; }
fieldset { border: 1px solid #999; margin: 0 0 1rem; padding: 0.5rem 0.75rem; }
label { display: block; margin: 0.5rem 0 0.2rem; }
label.inline, fieldset > label:has(input[type=radio]) { display: flex; gap: 0.5rem; align-items: baseline; }
input[type=text], input[type=number], select, textarea, input[type=file] { width: 100%; box-sizing: border-box;
  font: inherit; padding: 0.3rem; }
button { font: inherit; padding: 0.5rem 1rem; margin: 0 0.5rem 0.5rem 0; }
:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
[hidden] { display: none !important; }
#status[role=alert] { color: #a51d2d; font-weight: bold; }
li.fail, span.fail { color: #a51d2d; } li.warn, span.warn { color: #8a5a00; }
#pictures-checked { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; padding: 0; }
#pictures-checked figure { margin: 0; width: 7rem; font-size: 0.85rem; overflow-wrap: anywhere; }
#pictures-checked img { width: 6rem; height: 6rem; object-fit: contain; border: 1px solid #999; background: #fff; }
#previews { display: flex; flex-wrap: wrap; gap: 0.5rem; }
#previews figure { margin: 0; } #previews img { max-width: 10rem; border: 1px solid #999; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: 0.2rem 0.4rem; text-align: left; }
#checks li, td { overflow-wrap: anywhere; }
#words-checked { width: 100%; table-layout: fixed; }
#words-checked th:first-child { width: 32%; } #words-checked th:nth-child(2) { width: 3rem; }
"""


# the page's name of each language a family may name; one not here is shown by its code
LANGUAGES = {"en": "English", "ru": "Russian", "fa": "Persian", "ar": "Arabic", "de": "German", "el": "Greek",
             "es": "Spanish", "fr": "French", "he": "Hebrew", "hi": "Hindi", "it": "Italian", "ja": "Japanese",
             "ko": "Korean", "pl": "Polish", "pt": "Portuguese", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian",
             "zh": "Chinese"}


def html(decks: list[str], form_token: str) -> str:
    """The page, with the built-in decks in its list and its form token (``serve.form_token``),
    which every POST it sends carries; what it offers comes from the game families' declarations
    (``kitgen.families``): the kinds of kit to make, each family's own fields, the languages."""
    from . import families

    found = families.load()
    kinds = [kind for family in found for kind in family.page]
    first = kinds[0].value if kinds else ""

    def shown(values: list[str], name: str) -> dict[str, str]:
        return {name: " ".join(values), f"hidden-{name}": "" if first in values else " hidden"}

    slots = {"form": escape(form_token), "decks": "".join(f'<option value="{escape(d)}">{escape(d)}</option>'
                                                         for d in decks),
             "kinds": "".join(_kind_input(kind, kind.value == first) for kind in kinds),
             "families": "".join(family.page_html for family in found),
             "languages": "".join(f'<option value="{escape(code)}">{escape(LANGUAGES.get(code, code))}</option>'
                                  for code in families.languages()),
             **shown([k.value for k in kinds if k.upload == "words"], "upload-words"),
             **shown([k.value for k in kinds if k.upload == "pictures"], "upload-pictures"),
             **shown([k.value for k in kinds if k.builtin], "builtin"),
             **shown([k.value for k in kinds if "paper" in k.shows], "paper"),
             **shown([k.value for k in kinds if "check" in k.shows], "check")}
    return _SLOT.sub(lambda found_slot: slots[found_slot[1]], PAGE)


_SLOT = re.compile(r"\{([a-z-]+)\}")


def _kind_input(kind, checked: bool) -> str:
    """One choice under "What to make": what it sends, asks for and runs, in its data attributes."""
    import json

    data = {"sends": json.dumps([list(pair) for pair in kind.sends]), "upload": kind.upload,
            "builtin": "1" if kind.builtin else "", "make": "" if kind.command == "build" else kind.command}
    attributes = "".join(f' data-{name}="{escape(value)}"' for name, value in data.items() if value)
    return (f'<label><input type="radio" id="kind-{escape(kind.value)}" name="kind" value="{escape(kind.value)}"'
            f'{attributes}{" checked" if checked else ""}> {escape(kind.label, quote=False)}</label>\n')
