// Mahjongero table page: small progressive enhancements; every page also works without JS.
(function () {
  "use strict";
  const body = document.body;
  body.classList.add("js");

  // Tile labels: Chinese / Arabic / English, remembered on this device.
  function setLabels(mode) {
    body.classList.remove("labels-zh", "labels-ar", "labels-en");
    body.classList.add("labels-" + mode);
    try { localStorage.setItem("mahjongero-labels", mode); } catch (e) { /* private mode */ }
  }
  let saved = null;
  try { saved = localStorage.getItem("mahjongero-labels"); } catch (e) { saved = null; }
  if (saved === "zh" || saved === "ar" || saved === "en") setLabels(saved);
  document.querySelectorAll("[data-labels]").forEach((b) => b.addEventListener("click", () => setLabels(b.dataset.labels)));

  document.querySelectorAll("[data-back]").forEach((a) => a.addEventListener("click", (ev) => {
    if (history.length > 1) { ev.preventDefault(); history.back(); }
  }));

  // Photo upload: drag and drop onto the big box, show the chosen file's name.
  const drop = document.getElementById("drop");
  const input = document.getElementById("photo-input");
  if (drop && input) {
    const show = () => { const f = input.files && input.files[0]; document.getElementById("drop-file").textContent = f ? "✔ " + f.name : ""; };
    input.addEventListener("change", show);
    ["dragenter", "dragover"].forEach((t) => drop.addEventListener(t, (ev) => { ev.preventDefault(); drop.classList.add("over"); }));
    ["dragleave", "drop"].forEach((t) => drop.addEventListener(t, () => drop.classList.remove("over")));
    drop.addEventListener("drop", (ev) => {
      ev.preventDefault();
      if (ev.dataTransfer && ev.dataTransfer.files.length) { input.files = ev.dataTransfer.files; show(); }
    });
  }

  // Tap a tile (or its box on the photo) to correct it: a picture picker in a dialog.
  const dialog = document.getElementById("fix-dialog");
  const fixForm = document.getElementById("fix-form");
  if (dialog && fixForm && dialog.showModal) {
    document.querySelectorAll("a[data-index]").forEach((a) => a.addEventListener("click", (ev) => {
      ev.preventDefault();
      fixForm.action = fixForm.dataset.actionTemplate.replace("999999", a.dataset.index);
      dialog.showModal();
    }));
    dialog.querySelectorAll("[data-close]").forEach((b) => b.addEventListener("click", () => dialog.close()));
  }
  document.querySelectorAll("form[data-autosubmit]").forEach((f) => f.addEventListener("change", () => f.submit()));

  // Referee: win fields only for a win; picture palette types tile codes.
  const kind = document.getElementById("kind");
  const winFields = document.getElementById("win-fields");
  if (kind && winFields) {
    const sync = () => winFields.classList.toggle("hidden", kind.value !== "win");
    kind.addEventListener("change", sync); sync();
  }
  const tilesInput = document.getElementById("tiles");
  if (tilesInput) {
    document.querySelectorAll("button.pal[name=pick]").forEach((b) => b.addEventListener("click", () => {
      tilesInput.value = (tilesInput.value + " " + b.dataset.code).trim();
    }));
    document.querySelectorAll("[data-clear-tiles]").forEach((b) => b.addEventListener("click", () => { tilesInput.value = ""; }));
  }
  document.querySelectorAll("select[data-reload-param]").forEach((s) => s.addEventListener("change", () => {
    const url = new URL(location.href);
    url.searchParams.set(s.dataset.reloadParam, s.value);
    url.searchParams.set("setup", "1");
    location.href = url.toString();
  }));

  // Live: announcements and table changes arrive by Server-Sent Events.
  const panel = document.getElementById("table-panel");
  const list = document.getElementById("announcements");
  if (!panel && !list) return;
  const status = document.getElementById("live-status");
  const speak = document.getElementById("speak");
  let refreshing = false;
  function refreshPanel() {
    if (!panel || refreshing) return;
    refreshing = true;
    fetch(panel.dataset.src, { headers: { Accept: "text/html" } })
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((html) => { panel.innerHTML = html; })  // server-rendered with autoescape
      .catch(() => {}).finally(() => { refreshing = false; });
  }
  function addAnnouncement(msg) {
    if (!list) return;
    const empty = document.getElementById("ann-empty");
    if (empty) empty.remove();
    const li = document.createElement("li");
    li.className = "ann " + (msg.level || "info");
    li.textContent = msg.text;  // text only: never HTML
    list.prepend(li);
    while (list.children.length > 60) list.lastElementChild.remove();
    if (speak && speak.checked && window.speechSynthesis) {
      window.speechSynthesis.speak(new SpeechSynthesisUtterance(msg.text));
    }
  }
  const es = new EventSource("/live/stream");
  es.addEventListener("announce", (ev) => addAnnouncement(JSON.parse(ev.data)));
  es.addEventListener("table", refreshPanel);
  es.addEventListener("status", (ev) => { if (status) status.textContent = JSON.parse(ev.data).text; });
  const video = document.getElementById("video");
  if (video) {
    video.addEventListener("error", () => setTimeout(() => { video.src = video.src.split("?")[0] + "?t=" + Date.now(); }, 1000));
  }
})();
