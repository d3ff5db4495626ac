/* The live-preview page of `deckpress serve`.
 *
 * The server announces each new state on /api/events (Server-Sent Events, data = version); the page
 * then fetches /api/state and updates itself in place: tiles are keyed by the face's `key` (stable
 * across rebuilds), and a tile whose face `id` is unchanged is not touched at all, so nothing
 * flickers and the scroll stays where the designer left it.
 *
 * Every string in the state is deck data, i.e. untrusted: it only ever reaches the page through
 * textContent, attributes set with setAttribute, or URLs the server made. No innerHTML anywhere.
 */
"use strict";

(() => {
  const STORE = "deckpress.serve.";
  const SHEET_SCALE = 0.4;        // sheets are shown at 40 % of the cards' zoom: a page is big
  const FLASH_MS = 1200;          // how long a changed tile is outlined
  const SWAP_TIMEOUT_MS = 4000;   // longest we wait for a new image before marking the version applied

  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  /* ---------- small helpers ---------- */

  function el(tag, props = {}, children = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function load(name, fallback) {
    try {
      const v = localStorage.getItem(STORE + name);
      return v === null ? fallback : v;
    } catch (e) { return fallback; }   // storage can be disabled: the page still works
  }

  function save(name, value) {
    try { localStorage.setItem(STORE + name, String(value)); } catch (e) { /* not kept, fine */ }
  }

  function formatBytes(n) {
    if (typeof n !== "number" || !isFinite(n)) return "";
    if (n < 1000) return `${n} B`;
    if (n < 1e6) return `${Math.round(n / 1000)} kB`;
    return `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB`;
  }

  /* A field's value as one line: lists joined with ", ", maps as "key: value". */
  function formatValue(v) {
    if (v === null || v === undefined) return "";
    if (Array.isArray(v)) return v.map(formatValue).join(", ");
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${formatValue(x)}`).join(", ");
    return String(v);
  }

  function basename(path) {
    const s = String(path || "");
    return s.slice(s.lastIndexOf("/") + 1);
  }

  function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

  const PAPER_NAMES = { a4: "A4", letter: "Letter", a3: "A3", a5: "A5", legal: "Legal", tabloid: "Tabloid" };
  const INK_NAMES = { color: "Colour", lowink: "Low-ink" };
  const paperName = (p) => PAPER_NAMES[p] || String(p);

  /* Show `url` in `img` without a blank frame: the new picture is fetched and decoded off-screen
   * first, then swapped in. Resolves when the swap is done (or given up). A newer call for the
   * same img wins over an older one still loading. */
  function swapImage(img, url) {
    if (!url) return Promise.resolve();
    if (img.dataset.want === url) return img._swap || Promise.resolve();
    img.dataset.want = url;
    if (!img.getAttribute("src")) {           // nothing shown yet: nothing to flash
      img.src = url;
      img._swap = null;
      return Promise.resolve();
    }
    const pre = new Image();
    pre.src = url;
    const ready = (pre.decode ? pre.decode() : new Promise((ok, bad) => { pre.onload = ok; pre.onerror = bad; }))
      .catch(() => null)                       // a failed picture still replaces the stale one
      .then(() => { if (img.dataset.want === url) img.src = url; });
    const timeout = new Promise((ok) => setTimeout(ok, SWAP_TIMEOUT_MS));
    img._swap = Promise.race([ready, timeout]).then(() => {
      if (img.dataset.want === url && img.getAttribute("src") !== url) img.src = url;
    });
    return img._swap;
  }

  /* Show `url` at once: for a switch the designer asked for (the ink), where the picture was not
   * redrawn, and offscreen (lazy) tiles should not all be fetched up front. */
  function setImage(img, url) {
    if (!url || img.getAttribute("src") === url) return;
    img.dataset.want = url;
    img._swap = null;
    img.src = url;
  }

  /* Whether `img` is shown, in view or within a screen of it: such a picture is swapped without a
   * blank frame. Any other is only given its new address, which the browser loads lazily when it
   * comes into view; so an edit that changes a hundred faces, or a rebuild that changes every
   * sheet page, costs the server the pictures someone is looking at, not all of them. */
  function nearView(img) {
    if (img.closest("[hidden]")) return false;
    const r = img.getBoundingClientRect();
    return r.width > 0 && r.bottom > -innerHeight && r.top < 2 * innerHeight;
  }

  function showImage(img, url) {
    if (nearView(img) || !img.getAttribute("src")) return swapImage(img, url);
    setImage(img, url);
    return Promise.resolve();
  }

  /* Restart a one-shot CSS animation class on an element. */
  function flash(node, cls) {
    node.classList.remove(cls);
    void node.offsetWidth;                     // reflow, so the animation starts again
    node.classList.add(cls);
    clearTimeout(node[`_t_${cls}`]);
    node[`_t_${cls}`] = setTimeout(() => node.classList.remove(cls), cls === "changed" ? FLASH_MS : 2200);
  }

  /* Put `nodes` into `parent` in this order, moving only those out of place (a moved node loses
   * focus and restarts its animations, so the common case, nothing moved, touches nothing). */
  function reorder(parent, nodes) {
    let cursor = parent.firstElementChild;
    for (const node of nodes) {
      if (node === cursor) { cursor = cursor.nextElementSibling; continue; }
      parent.insertBefore(node, cursor);
    }
  }

  /* ---------- state of the page ---------- */

  const ui = {
    state: null,
    ink: load("ink", "color") === "lowink" ? "lowink" : "color",
    zoom: clampZoom(Number(load("zoom", "100"))),
    paper: load("paper", "a4"),
    tab: "cards",
    filter: "",
    search: "",            // what the search box holds: tiles whose fields hold it are shown
    view: load("view", "faces") === "pairs" ? "pairs" : "faces",   // every face, or fronts beside backs
    guides: load("guides", "0") === "1",   // trim line, bleed and safe area over the faces
    tiles: new Map(),      // key → tile element
    pairs: new Map(),      // front key → .pair element (the front-and-back view)
    sheetNodes: new Map(), // file name → .sheet element
    detailKey: null,       // key of the face shown in the dialog
    connected: null,       // null until the event stream first answers or fails
  };

  function clampZoom(z) {
    if (!isFinite(z)) return 100;
    return Math.min(200, Math.max(25, Math.round(z / 5) * 5));
  }

  /* ---------- header ---------- */

  function renderHeader(state) {
    const deck = state.deck || {};
    const title = deck.title || deck.id || "deckpress";
    $("#title").textContent = title;
    document.title = `${title} · deckpress`;
    const players = deck.players ? `${deck.players} players` : "";
    $("#meta").textContent = [deck.designer, deck.license, players].filter(Boolean).join(" · ");
    $("#meta").title = deck.file || "";
    const stats = state.stats || {};
    const cards = typeof stats.cards === "number" ? stats.cards
      : (state.components || []).reduce((n, c) => n + (c.cards || 0), 0);
    $("#counts").textContent = `${plural(cards, "card", "cards")} · ${plural((state.faces || []).length, "face", "faces")}`;
  }

  function renderStatus() {
    const status = $("#status");
    const state = ui.state;
    let text, mode;
    if (ui.connected === false) {
      text = "Disconnected · waiting for the server…";
      mode = "down";
    } else if (!state) {
      text = "Connecting…";
      mode = "busy";
    } else if (state.error) {
      text = (state.faces || []).length ? "Build failed · showing the last good cards" : "Build failed";
      mode = "error";
    } else if (state.building) {
      text = "Rebuilding sheets…";
      mode = "busy";
    } else {
      const s = state.stats || {};
      const parts = [];
      if (s.finished) parts.push(`Updated ${s.finished}`);
      if (typeof s.faces_drawn === "number") {
        const secs = typeof s.seconds === "number" ? ` in ${s.seconds.toFixed(2)} s` : "";
        parts.push(s.faces_drawn === 0 ? `nothing redrawn${secs}`
          : `${plural(s.faces_drawn, "face", "faces")} redrawn${secs}`);
      }
      text = parts.join(" · ") || "Up to date";
      mode = "ok";
    }
    $(".text", status).textContent = text;
    status.dataset.mode = mode;
    document.body.classList.toggle("disconnected", ui.connected === false);
  }

  function renderBanner(state) {
    const banner = $("#banner");
    if (state.error) {
      banner.textContent = String(state.error);
      banner.hidden = false;
    } else {
      banner.hidden = true;
      banner.textContent = "";
    }
  }

  /* ---------- filter, downloads, warnings ---------- */

  function renderFilter(state) {
    const select = $("#filter");
    const comps = state.components || [];
    const names = new Set(comps.map((c) => String(c.name)));
    if (ui.filter && !names.has(ui.filter)) ui.filter = "";   // its component is gone
    const want = [["", "All components"]].concat(
      comps.map((c) => [String(c.name), `${c.name} (${c.cards})`]));
    const have = Array.from(select.options).map((o) => [o.value, o.textContent]);
    if (JSON.stringify(want) !== JSON.stringify(have)) {
      select.replaceChildren(...want.map(([value, label]) => {
        const o = el("option", { text: label });
        o.value = value;
        return o;
      }));
    }
    select.value = ui.filter;
  }

  function renderDownloads(state) {
    const list = $("#downloads .download-list");
    const items = (state.downloads || []).map((d) => {
      const a = el("a", { href: d.url, download: d.name || "", title: d.name || "" }, [
        el("span", { class: "label", text: d.label || d.name || d.url }),
        el("span", { class: "size", text: formatBytes(d.bytes) }),
      ]);
      return el("li", {}, [a]);
    });
    list.replaceChildren(...items);
    $("#downloads").hidden = items.length === 0;
  }

  /* faces marked by each warning index */
  function facesByWarning(state) {
    const map = new Map();
    for (const face of state.faces || []) {
      for (const i of face.warnings || []) {
        if (!map.has(i)) map.set(i, []);
        map.get(i).push(face.key);
      }
    }
    return map;
  }

  function renderWarnings(state) {
    const panel = $("#warnings");
    const warnings = state.warnings || [];
    const marks = facesByWarning(state);
    $(".summary-text", panel).textContent = plural(warnings.length, "warning", "warnings");
    const items = warnings.map((w, i) => {
      const keys = marks.get(i) || [];
      const text = el("span", { class: "warning-text", dir: "auto", text: w.text || w.message || "" });
      const li = el("li", { class: "warning", "data-kind": w.kind || "" });
      if (keys.length) {
        const b = el("button", { type: "button", class: "warning-link", title: "Show the card" }, [text]);
        li.append(b);
        li.dataset.face = keys[0];
        li.addEventListener("click", () => revealFace(keys[0]));
      } else {
        li.append(text);
      }
      return li;
    });
    $(".warning-list", panel).replaceChildren(...items);
    panel.hidden = warnings.length === 0;
    if (!warnings.length) panel.open = false;
  }

  function revealFace(key) {
    const tile = ui.tiles.get(key);
    if (!tile) return;
    setTab("cards");
    if (ui.view !== "faces") setView("faces");
    if (tile.hidden) {
      ui.filter = ""; $("#filter").value = "";
      ui.search = ""; $("#search").value = "";
      applyFilter();
    }
    $("#warnings").open = false;
    tile.scrollIntoView({ block: "center", inline: "nearest", behavior: "smooth" });
    tile.focus({ preventScroll: true });
    flash(tile, "spotlight");
  }

  /* ---------- the cards ---------- */

  function faceLabel(face, state) {
    const cards = face.cards || [];
    if (face.side === "back" && cards.length !== 1) {
      const all = (state.components || []).length;
      const comps = face.components || [];
      return `back · ${comps.length && comps.length === all ? (all === 1 ? comps[0] : "every card") : comps.join(", ")}`;
    }
    const names = [];
    for (const c of cards) {
      const name = cardName(c);
      if (!names.includes(name)) names.push(name);
    }
    const base = names.length ? (names.length > 2 ? `${names.slice(0, 2).join(", ")} +${names.length - 2}` : names.join(", "))
      : (face.components || []).join(", ");
    return face.side === "back" ? `back · ${base}` : base;
  }

  /* A card without a name (a staff piece, a blank) is called by its component and number. */
  function cardName(card) {
    const name = card.name === undefined || card.name === null ? "" : String(card.name).trim();
    return name || `${card.component} ${card.number}`;
  }

  function faceSource(face) {
    const cards = face.cards || [];
    if (!cards.length) return { short: "", full: "" };
    const short = basename(cards[0].source) + (cards.length > 1 ? ` +${cards.length - 1}` : "");
    return { short, full: cards.map((c) => c.source).filter(Boolean).join("\n") };
  }

  function faceCopies(face) {
    if (typeof face.copies === "number") return face.copies;
    return (face.cards || []).reduce((n, c) => n + (Number(c.copies) || 0), 0);
  }

  /* The face's picture in the ink shown: with guides on, the one that shows its bleed too. */
  function faceUrl(face) {
    const src = (ui.guides && face.bleed_src) || face.src || {};
    return src[ui.ink] || src.color || "";
  }

  function warningTexts(face, state) {
    const warnings = state.warnings || [];
    return (face.warnings || []).map((i) => warnings[i]).filter(Boolean).map((w) => w.text || w.message || "");
  }

  function makeTile(face) {
    const img = el("img", { alt: "", decoding: "async", loading: "lazy", draggable: "false" });
    const frame = el("div", { class: "face" }, [img, el("span", { class: "guide trim" }),
      el("span", { class: "guide safe" })]);
    const badge = el("span", { class: "badge", hidden: "" });
    badge.textContent = "⚠";
    const caption = el("div", { class: "caption" }, [
      el("div", { class: "line" }, [
        el("span", { class: "name", dir: "auto" }),
        el("span", { class: "copies" }),
      ]),
      el("code", { class: "source" }),
    ]);
    const tile = el("div", { class: "tile", tabindex: "0", role: "button", "aria-haspopup": "dialog" },
      [frame, badge, caption]);
    tile.dataset.key = face.key;
    return tile;
  }

  /* Fill a tile from its face. Called only for new tiles and faces whose id changed (or whose
   * words around the picture changed), so an unchanged tile is never written to. */
  function fillTile(tile, face, state, changed) {
    const img = $(".face img", tile);
    const frame = $(".face", tile);
    frame.style.setProperty("--w", face.width);
    frame.style.setProperty("--h", face.height);
    frame.style.setProperty("--r", face.radius || 0);
    tile.style.setProperty("--w", face.width);
    tile.style.setProperty("--b", face.bleed || 0);
    tile.style.setProperty("--s", face.safe || 0);
    const label = faceLabel(face, state);
    img.alt = `${label} (${face.side || "front"})`;
    const src = faceSource(face);
    $(".name", tile).textContent = label;
    $(".name", tile).title = label;
    const copies = faceCopies(face);
    $(".copies", tile).textContent = `×${copies}`;
    $(".copies", tile).title = plural(copies, "printed copy", "printed copies");
    const source = $(".source", tile);
    source.textContent = src.short;
    source.title = src.full;
    const warnings = warningTexts(face, state);
    tile.classList.toggle("has-warning", warnings.length > 0);
    const badge = $(".badge", tile);
    badge.hidden = warnings.length === 0;
    badge.title = warnings.join("\n");
    badge.setAttribute("aria-label", warnings.length ? `Warnings: ${warnings.join("; ")}` : "");
    tile.setAttribute("aria-label", `${label}, ×${copies}${warnings.length ? ", has warnings" : ""}`);
    tile.dataset.id = face.id;
    tile.dataset.side = face.side || "front";
    tile.dataset.components = JSON.stringify(face.components || []);
    tile._face = face;
    tile._sig = tileSignature(face, state);
    const swap = showImage(img, faceUrl(face));
    if (changed) flash(tile, "changed");
    return swap;
  }

  /* What a tile shows besides the picture: its caption and warnings can change while the face's
   * id does not (a card renamed to the same look, a warning added), so those are compared too. */
  function tileSignature(face, state) {
    return JSON.stringify([face.id, faceLabel(face, state), face.copies, faceSource(face), warningTexts(face, state),
      face.width, face.height, face.radius, face.src, face.components, face.bleed, face.safe, face.cards]);
  }

  function renderCards(state, firstTime) {
    const grid = $("#cards .grid");
    const faces = state.faces || [];
    const seen = new Set();
    const order = [];
    const swaps = [];
    for (const face of faces) {
      if (seen.has(face.key)) continue;        // a duplicate key would break the DOM identity
      seen.add(face.key);
      let tile = ui.tiles.get(face.key);
      if (!tile) {
        tile = makeTile(face);
        ui.tiles.set(face.key, tile);
        swaps.push(fillTile(tile, face, state, !firstTime));
      } else if (tile._sig !== tileSignature(face, state)) {
        const lookChanged = tile.dataset.id !== String(face.id);
        swaps.push(fillTile(tile, face, state, lookChanged));
      } else {
        tile._face = face;                     // same look, same words: leave the DOM alone
      }
      order.push(tile);
    }
    for (const [key, tile] of ui.tiles) {
      if (!seen.has(key)) { tile.remove(); ui.tiles.delete(key); }
    }
    reorder(grid, order);
    if (ui.view === "pairs") swaps.push(...renderPairs(state));
    applyFilter();
    $("#cards .empty").hidden = faces.length > 0 || !!state.error;
    return swaps;
  }

  /* The front-and-back view: each front, in the cards' order, beside the back of its first card
   * (a back many cards share is shown beside each). Pairs are kept by the front's key, and their
   * tiles filled only when their face or words changed, as the grid's are. */
  function renderPairs(state) {
    const box = $("#cards .pairs");
    const byKey = new Map((state.faces || []).map((f) => [f.key, f]));
    const order = [], swaps = [], seen = new Set();
    for (const front of state.faces || []) {
      if (front.side !== "front" || seen.has(front.key)) continue;
      seen.add(front.key);
      let pair = ui.pairs.get(front.key);
      if (!pair) {
        pair = el("div", { class: "pair" });
        pair.dataset.key = front.key;
        ui.pairs.set(front.key, pair);
      }
      const back = front.back ? byKey.get(front.back) : null;
      const tiles = [];
      for (const face of [front, back]) {
        if (!face) { tiles.push(el("div", { class: "no-back", text: "no back" })); continue; }
        let tile = Array.from(pair.children).find((t) => t.dataset && t.dataset.key === face.key);
        if (!tile) {
          tile = makeTile(face);
          swaps.push(fillTile(tile, face, state, false));
        } else if (tile._sig !== tileSignature(face, state)) {
          swaps.push(fillTile(tile, face, state, tile.dataset.id !== String(face.id)));
        } else {
          tile._face = face;
        }
        tiles.push(tile);
      }
      if (tiles.some((t, i) => pair.children[i] !== t) || pair.children.length !== tiles.length) pair.replaceChildren(...tiles);
      pair._front = front;
      order.push(pair);
    }
    for (const [key, pair] of ui.pairs) {
      if (!seen.has(key)) { pair.remove(); ui.pairs.delete(key); }
    }
    reorder(box, order);
    return swaps;
  }

  /* Every tile on the page: the grid's, and the front-and-back view's. */
  function allTiles() {
    const tiles = Array.from(ui.tiles.values());
    for (const pair of ui.pairs.values()) tiles.push(...$$(".tile", pair));
    return tiles;
  }

  /* Whether a face's cards hold `query` (lower case) in a field's value, their name, or a field's
   * name and value written `name: value`. */
  function matches(face, query) {
    if (!query) return true;
    for (const card of face.cards || []) {
      if (cardName(card).toLowerCase().includes(query)) return true;
      for (const [k, v] of Object.entries(card.fields || {})) {
        const value = formatValue(v).toLowerCase();
        if (value.includes(query) || `${k}: ${value}`.toLowerCase().includes(query)) return true;
      }
    }
    return false;
  }

  function applyFilter() {
    const f = ui.filter;
    const query = ui.search.trim().toLowerCase();
    const wanted = (face) => {
      const comps = (face && face.components) || [];
      return (!f || comps.map(String).includes(f)) && matches(face, query);
    };
    let shown = 0, total = 0;
    for (const tile of ui.tiles.values()) {
      const show = wanted(tile._face);
      if (tile.hidden === show) tile.hidden = !show;
      if (ui.view === "faces") { total++; if (show) shown++; }
    }
    for (const pair of ui.pairs.values()) {
      const show = wanted(pair._front);
      if (pair.hidden === show) pair.hidden = !show;
      if (ui.view === "pairs") { total++; if (show) shown++; }
    }
    const count = $("#search-count");
    const what = ui.view === "pairs" ? ["card", "cards"] : ["face", "faces"];
    count.textContent = query ? `${shown} of ${plural(total, ...what)}` : "";
    document.body.classList.toggle("searching", !!query);   // the count says the total: the header's goes
    const none = $("#cards .no-match");
    if (none) none.hidden = !(query && shown === 0 && total > 0);
  }

  /* ---------- sheets ---------- */

  function renderPaperChoice(state) {
    const select = $("#paper");
    const papers = [];
    for (const s of state.sheets || []) if (!papers.includes(s.paper)) papers.push(s.paper);
    if (!papers.length) papers.push("a4", "letter");
    const have = Array.from(select.options).map((o) => o.value);
    if (JSON.stringify(have) !== JSON.stringify(papers)) {
      select.replaceChildren(...papers.map((p) => {
        const o = el("option", { text: paperName(p) });
        o.value = p;
        return o;
      }));
    }
    if (!papers.includes(ui.paper)) ui.paper = papers[0];
    select.value = ui.paper;
  }

  function downloadFor(state, name) {
    return (state.downloads || []).find((d) => d.name === name);
  }

  function makeSheet() {
    const head = el("h3", {}, [
      el("span", { class: "kind" }),
      el("a", { class: "file", download: "" }),
      el("span", { class: "info" }),
    ]);
    return el("div", { class: "sheet" }, [head, el("div", { class: "pages" })]);
  }

  function renderSheets(state) {
    const list = $("#sheets .sheet-list");
    const shown = (state.sheets || []).filter((s) => s.paper === ui.paper && s.ink === ui.ink);
    const order = [];
    const swaps = [];
    const names = new Set();
    for (const sheet of shown) {
      if (names.has(sheet.name)) continue;
      names.add(sheet.name);
      let node = ui.sheetNodes.get(sheet.name);
      if (!node) { node = makeSheet(); ui.sheetNodes.set(sheet.name, node); }
      node.dataset.name = sheet.name;
      node.dataset.kind = sheet.kind;
      const dl = downloadFor(state, sheet.name);
      $(".kind", node).textContent = sheet.kind;
      const link = $("a.file", node);
      link.textContent = sheet.name;
      link.href = dl ? dl.url : `/files/${encodeURIComponent(sheet.name)}`;
      link.setAttribute("download", sheet.name);
      const pages = sheet.pages || [];
      $(".info", node).textContent = [plural(pages.length, "page", "pages"), dl ? formatBytes(dl.bytes) : ""]
        .filter(Boolean).join(" · ");
      const box = $(".pages", node);
      const imgs = Array.from(box.children);
      pages.forEach((page, i) => {
        let img = imgs[i];
        if (!img) {
          img = el("img", { class: "page", decoding: "async", loading: "lazy", draggable: "false" });
          box.append(img);
        }
        img.style.setProperty("--w", page.width);
        img.style.setProperty("--h", page.height);
        img.alt = `${sheet.name}, page ${i + 1} of ${pages.length}`;
        swaps.push(showImage(img, page.src));
      });
      for (const extra of imgs.slice(pages.length)) extra.remove();
      order.push(node);
    }
    for (const [name, node] of ui.sheetNodes) {
      if (!names.has(name)) { node.remove(); ui.sheetNodes.delete(name); }
    }
    reorder(list, order);
    const empty = $("#sheets .empty");
    empty.hidden = order.length > 0;
    empty.textContent = state.building ? "Building the sheets…"
      : `No ${INK_NAMES[ui.ink].toLowerCase()} sheets on ${paperName(ui.paper)}.`;
    $("#sheets .ink-note").textContent = `${INK_NAMES[ui.ink]} · shown at ${Math.round(SHEET_SCALE * ui.zoom)} % of true size`;
    $("#sheets").classList.toggle("building", !!state.building);
    return swaps;
  }

  /* ---------- the detail dialog ---------- */

  function openDetail(key) {
    const dialog = $("#detail");
    ui.detailKey = key;
    renderDetail();
    const tile = ui.tiles.get(key);
    if (tile) tile._detailSig = tile._sig;
    if (!dialog.open) dialog.showModal();
    $(".close", dialog).focus();
  }

  function renderDetail() {
    const dialog = $("#detail");
    const tile = ui.tiles.get(ui.detailKey);
    const state = ui.state;
    if (!tile || !state) { if (dialog.open) dialog.close(); return; }
    const face = tile._face;
    const label = faceLabel(face, state);
    $("#detail-title").textContent = label;
    dialog.dataset.key = face.key;
    dialog.dataset.id = face.id;

    const img = $(".detail-face img", dialog);
    img.alt = `${label} (${face.side || "front"})`;
    sizeDetailImage(face);
    swapImage(img, faceUrl(face));
    $(".detail-face figcaption", dialog).textContent =
      `${face.side || "front"} · ${face.width} × ${face.height} mm · ×${faceCopies(face)} printed`;

    const box = $(".detail-cards", dialog);
    const parts = [];
    const warnings = warningTexts(face, state);
    if (warnings.length) {
      parts.push(el("ul", { class: "detail-warnings" },
        warnings.map((w) => el("li", { class: "warning", dir: "auto", text: w }))));
    }
    const cards = face.cards || [];
    if (!cards.length) {
      parts.push(el("p", { class: "note", text:
        `Shared by every card of ${(face.components || []).join(", ") || "the deck"}.` }));
    }
    for (const card of cards) {
      const values = card.fields || {};
      // the card list's order (a spreadsheet's columns, a YAML card's keys), then the defaults
      const keys = (card.order || []).filter((k) => k in values);
      for (const k of Object.keys(values)) if (!keys.includes(k)) keys.push(k);
      const defaults = card.defaults || {};
      const pair = (label, value, cls) => el("span", { class: cls || null }, [
        el("span", { class: "k", text: label }), " ", value instanceof Node ? value
          : el("span", { class: "v", dir: "auto", text: value })]);
      const template = card.template;
      const meta = el("p", { class: "card-meta" }, [
        pair("component", String(card.component)),
        pair("number", String(card.number)),
        pair("copies", String(card.copies)),
        pair("card", sourceLink(card.source, card.at), "source"),
        template ? pair(`${face.side || "front"} template ${template.name}`, sourceLink(template.source, template),
          "source") : null,
      ]);
      const section = el("section", { class: "card" }, [
        el("h3", { dir: "auto", text: cardName(card) }),
        meta,
      ]);
      if (keys.length) {
        const table = el("table", { class: "fields" }, [el("tbody", {}, keys.map((k) => {
          const place = defaults[k];
          const cell = el("td", { dir: "auto" }, [el("span", { class: "v", text: formatValue(values[k]) })]);
          if (place) cell.append(" ", el("span", { class: "default" }, ["default · ", sourceLink(place.source, place)]));
          return el("tr", { class: place ? "is-default" : null },
            [el("th", { scope: "row", dir: "auto", text: k }), cell]);
        }))]);
        section.append(table);
      } else {
        section.append(el("p", { class: "note", text: "No fields." }));
      }
      parts.push(section);
    }
    parts.push(el("p", { class: "open-note", role: "status", hidden: "" }));
    box.replaceChildren(...parts);
  }

  /* ---------- file:line links into the editor ---------- */

  const meta = (name) => { const m = document.querySelector(`meta[name="${name}"]`); return m ? m.content : ""; };
  const TOKEN = meta("deckpress-token");
  const EDITOR = meta("deckpress-editor");   // "" when the server has no $VISUAL or $EDITOR

  /* `file:line` as a link: with an editor, a button that asks the server to open it there; else a
   * vscode:// link, which VS Code (when installed) opens. */
  function sourceLink(shown, at) {
    const text = shortPath(String(shown || ""));
    if (!at || !at.file) return el("span", { class: "v", text });
    if (EDITOR) {
      const b = el("button", { type: "button", class: "open-source", title: `Open ${at.file}:${at.line} in ${EDITOR}`,
        "data-file": at.file, "data-line": String(at.line) }, [text]);
      b.addEventListener("click", () => openSource(b, at));
      return b;
    }
    const path = at.file.split("/").map(encodeURIComponent).join("/").replace(/^\/?/, "/");
    return el("a", { class: "open-source", href: `vscode://file${path}:${at.line}`,
      title: `Open ${at.file}:${at.line} in VS Code (set $VISUAL or $EDITOR for another editor)` }, [text]);
  }

  /* A path as the terminal shows it, its folders cut to the last two. */
  function shortPath(s) {
    const parts = s.split("/");
    return parts.length > 3 ? `…/${parts.slice(-2).join("/")}` : s;
  }

  async function openSource(button, at) {
    const note = $("#detail .open-note");
    note.hidden = false;
    note.dataset.mode = "busy";
    note.textContent = `Opening ${basename(at.file)}:${at.line}…`;
    try {
      const response = await fetch("/api/open", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ file: at.file, line: at.line, token: TOKEN }) });
      const text = (await response.text()).trim();
      note.dataset.mode = response.ok ? "ok" : "error";
      note.textContent = response.ok ? `${text} in ${EDITOR}` : text;
    } catch (e) {
      note.dataset.mode = "error";
      note.textContent = "The server did not answer.";
    }
  }

  /* The face at twice its true size, or smaller when that does not fit the window. */
  function sizeDetailImage(face) {
    const frame = $("#detail .detail-frame");
    const img = $("img", frame);
    const pxPerMm = 96 / 25.4;
    const bleed = ui.guides ? face.bleed || 0 : 0;   // with guides, the bleed around it too
    const w = (face.width + 2 * bleed) * pxPerMm, h = (face.height + 2 * bleed) * pxPerMm;
    const narrow = window.innerWidth <= 760;   // the dialog stacks: leave room for the fields below
    const availW = narrow ? window.innerWidth - 100 : Math.max(240, window.innerWidth * 0.55 - 80);
    const availH = narrow ? window.innerHeight * 0.5 : window.innerHeight - 180;
    const scale = Math.max(0.1, Math.min(2, availW / w, availH / h));
    img.style.width = `${Math.round(w * scale)}px`;
    img.style.height = `${Math.round(h * scale)}px`;
    frame.style.borderRadius = ui.guides ? "0" : `${(face.radius || 0) * pxPerMm * scale}px`;
    // the guides are drawn in mm times --zoom, as on the tiles
    for (const [name, value] of [["--zoom", scale], ["--b", face.bleed || 0], ["--s", face.safe || 0],
      ["--r", face.radius || 0]]) frame.style.setProperty(name, String(value));
  }

  /* ---------- applying a state ---------- */

  let applied = 0;   // how many states applied: only the newest may mark the version done

  function applyState(state) {
    const firstTime = ui.state === null;
    ui.state = state;
    const serial = ++applied;
    renderHeader(state);
    renderBanner(state);
    renderFilter(state);
    renderDownloads(state);
    renderWarnings(state);
    renderPaperChoice(state);
    const swaps = renderCards(state, firstTime).concat(renderSheets(state));
    if (ui.detailKey !== null && $("#detail").open) {
      const tile = ui.tiles.get(ui.detailKey);
      if (!tile) $("#detail").close();
      else if ($("#detail").dataset.id !== String(tile._face.id) || tile._detailSig !== tile._sig) renderDetail();
      if (tile) tile._detailSig = tile._sig;
    }
    renderStatus();
    // The version says "this state is on the page", pictures included: tests and tools wait on it.
    Promise.all(swaps).then(() => {
      if (serial === applied) document.body.dataset.version = String(state.version);
    });
  }

  /* One fetch at a time, in order; a message during a fetch asks for one more afterwards. */
  let fetching = false, again = false;
  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        const response = await fetch("/api/state", { cache: "no-store" });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        applyState(await response.json());
      } while (again);
    } catch (e) {
      console.warn("deckpress: could not read the state:", e);
    } finally {
      fetching = false;
    }
  }

  /* ---------- live connection ---------- */

  let source = null, retry = null;
  function connect() {
    clearTimeout(retry);
    if (source) source.close();
    source = new EventSource("/api/events");
    source.onopen = () => {
      ui.connected = true;
      renderStatus();
      refresh();
    };
    source.onmessage = () => {
      if (!ui.connected) { ui.connected = true; renderStatus(); }
      refresh();
    };
    source.onerror = () => {
      ui.connected = false;
      renderStatus();
      // EventSource retries by itself unless the server answered with an error: then we do.
      if (source.readyState === EventSource.CLOSED) retry = setTimeout(connect, 2000);
    };
  }

  /* ---------- controls ---------- */

  function setZoom(z) {
    ui.zoom = clampZoom(z);
    document.documentElement.style.setProperty("--zoom", String(ui.zoom / 100));
    document.documentElement.style.setProperty("--sheet-zoom", String((ui.zoom / 100) * SHEET_SCALE));
    $("#zoom").value = String(ui.zoom);
    $("#zoom-value").textContent = `${ui.zoom} %`;
    if (ui.state) $("#sheets .ink-note").textContent =
      `${INK_NAMES[ui.ink]} · shown at ${Math.round(SHEET_SCALE * ui.zoom)} % of true size`;
  }

  function setInk(ink) {
    ui.ink = ink === "lowink" ? "lowink" : "color";
    for (const b of $$("button[data-ink]")) b.setAttribute("aria-pressed", String(b.dataset.ink === ui.ink));
    document.body.dataset.ink = ui.ink;
    if (!ui.state) return;
    for (const tile of allTiles()) setImage($(".face img", tile), faceUrl(tile._face));
    renderSheets(ui.state);
    if ($("#detail").open) renderDetail();
  }

  /* Guides: each face shown with its bleed, the trim line and the safe area drawn over it. */
  function setGuides(on) {
    ui.guides = !!on;
    $("#guides").checked = ui.guides;
    document.body.classList.toggle("guides", ui.guides);
    $(".guides-key").hidden = !ui.guides;
    for (const tile of allTiles()) if (tile._face) setImage($(".face img", tile), faceUrl(tile._face));
    if ($("#detail").open) renderDetail();
  }

  function setView(view) {
    ui.view = view === "pairs" ? "pairs" : "faces";
    for (const b of $$("button[data-view]")) b.setAttribute("aria-pressed", String(b.dataset.view === ui.view));
    $("#cards .grid").hidden = ui.view !== "faces";
    $("#cards .pairs").hidden = ui.view !== "pairs";
    document.body.dataset.view = ui.view;
    if (ui.state && ui.view === "pairs") renderPairs(ui.state);
    applyFilter();
  }

  const scrolls = { cards: 0, sheets: 0 };   // each tab keeps its own scroll position
  function setTab(tab) {
    const next = tab === "sheets" ? "sheets" : "cards";
    const moving = next !== ui.tab;
    if (moving) scrolls[ui.tab] = window.scrollY;
    ui.tab = next;
    for (const b of $$("button[data-tab]")) {
      const on = b.dataset.tab === ui.tab;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    }
    $("#cards").hidden = ui.tab !== "cards";
    $("#sheets").hidden = ui.tab !== "sheets";
    $("#filter").closest(".field").classList.toggle("off", ui.tab !== "cards");
    $("#search").closest(".field").classList.toggle("off", ui.tab !== "cards");
    document.body.dataset.tab = ui.tab;
    if (moving) window.scrollTo(0, scrolls[ui.tab]);
  }

  function closeMenus(except) {
    for (const d of $$("details.menu[open]")) if (d !== except) d.open = false;
  }

  function wire() {
    setZoom(ui.zoom);
    setInk(ui.ink);
    setTab("cards");
    setView(ui.view);
    setGuides(ui.guides);
    $("#cards .grid").after(el("p", { class: "empty no-match", hidden: "", text: "No card's fields hold that." }));

    $("#search").addEventListener("input", (e) => { ui.search = e.target.value; applyFilter(); });
    $("#guides").addEventListener("change", (e) => { setGuides(e.target.checked); save("guides", ui.guides ? 1 : 0); });
    for (const b of $$("button[data-view]")) {
      b.addEventListener("click", () => { setView(b.dataset.view); save("view", ui.view); });
    }

    $("#zoom").addEventListener("input", (e) => {
      setZoom(Number(e.target.value));
      save("zoom", ui.zoom);
    });
    for (const b of $$("button[data-ink]")) {
      b.addEventListener("click", () => { setInk(b.dataset.ink); save("ink", ui.ink); });
    }
    for (const b of $$("button[data-tab]")) b.addEventListener("click", () => setTab(b.dataset.tab));
    $(".tabs").addEventListener("keydown", (e) => {   // arrow keys move between tabs
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      const next = ui.tab === "cards" ? "sheets" : "cards";
      setTab(next);
      $(`button[data-tab="${next}"]`).focus();
      e.preventDefault();
    });
    $("#filter").addEventListener("change", (e) => { ui.filter = e.target.value; applyFilter(); });
    $("#paper").addEventListener("change", (e) => {
      ui.paper = e.target.value;
      save("paper", ui.paper);
      if (ui.state) renderSheets(ui.state);
    });

    for (const grid of [$("#cards .grid"), $("#cards .pairs")]) {
      grid.addEventListener("click", (e) => {
        const tile = e.target.closest(".tile");
        if (tile) openDetail(tile.dataset.key);
      });
      grid.addEventListener("keydown", (e) => {
        const tile = e.target.closest(".tile");
        if (!tile || e.target !== tile) return;
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openDetail(tile.dataset.key); }
      });
    }

    const dialog = $("#detail");
    $(".close", dialog).addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });  // the backdrop
    dialog.addEventListener("close", () => {
      const tile = ui.tiles.get(ui.detailKey);
      ui.detailKey = null;
      if (tile && !tile.hidden) tile.focus({ preventScroll: true });
    });
    window.addEventListener("resize", () => {
      if (dialog.open && ui.detailKey !== null) {
        const tile = ui.tiles.get(ui.detailKey);
        if (tile) sizeDetailImage(tile._face);
      }
    });

    for (const d of $$("details.menu")) d.addEventListener("toggle", () => { if (d.open) closeMenus(d); });
    document.addEventListener("click", (e) => {
      if (!e.target.closest("details.menu")) closeMenus(null);
    });
    document.addEventListener("keydown", (e) => {
      // "/" goes to the search, as on many sites, unless a field or the dialog has the keys
      if (e.key === "/" && !dialog.open && !e.target.closest("input, select, textarea") && ui.tab === "cards") {
        e.preventDefault();
        $("#search").focus();
        $("#search").select();
        return;
      }
      if (e.key === "Escape" && !dialog.open) {
        const open = $("details.menu[open]");
        if (open) { open.open = false; $("summary", open).focus(); }
      }
    });
  }

  function start() {
    wire();
    renderStatus();
    connect();
    refresh();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
