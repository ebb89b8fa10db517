// Knockdown Referee dashboard: plain JS, no build step. The pages read /api and
// /dashboard/api; live changes arrive over Server-Sent Events (/api/events), and
// every change the referee makes is a POST with the session's CSRF token.
"use strict";

const $ = (id) => document.getElementById(id);
const page = document.body.dataset.page;

// ---------------------------------------------------------------- small helpers
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.message || response.statusText);
  return body;
}

const session = { referee: false, csrf: null };

async function loadSession() {
  const info = await getJSON("/api/session");
  session.referee = info.referee;
  session.csrf = info.csrf_token;
  document.body.classList.toggle("is-referee", session.referee);
  return session;
}

async function post(path, body) {
  if (!session.csrf) await loadSession();
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
    body: JSON.stringify(body === undefined ? {} : body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    toast(answer.message || `${response.status} ${response.statusText}`);
    throw new Error(answer.message || response.statusText);
  }
  return answer;
}

function playerName(snapshot, p) {
  const player = snapshot && snapshot.players && snapshot.players[p];
  return player ? player.name : `Player ${p + 1}`;
}

// ---------------------------------------------------------------- theme
$("theme").addEventListener("click", () => {
  const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
  document.documentElement.dataset.theme = next;
  localStorage.setItem("knockdown-theme", next);
});

// ---------------------------------------------------------------- health bar
function pill(id, text, ok) {
  const node = $(id);
  node.textContent = text;
  node.dataset.ok = ok === null ? "" : String(ok);
}

async function refreshHealth() {
  try {
    const [health, system] = await Promise.all([getJSON("/api/health"), getJSON("/dashboard/api/system")]);
    const hw = health.hardware || {};
    pill("h-gpio", `GPIO ${hw.countdown === "gpio" ? "real" : hw.countdown === "mock-gpio" ? "simulated" : "none"}`,
      hw.countdown === "gpio" ? true : null);
    const cameras = Array.isArray(health.cameras) ? health.cameras : null;
    pill("h-camera", cameras
      ? cameras.map((c) => `${c.name} ${c.fps == null ? "–" : Number(c.fps).toFixed(0)} fps`).join(" · ")
      : `camera ${hw.camera || "none"}`, hw.camera === "camera" ? true : null);
    pill("h-store", `store ${health.status}`, health.status === "ok");
    pill("h-temp", system.cpu_temp_c == null ? "CPU n/a" : `CPU ${system.cpu_temp_c} °C`,
      system.cpu_temp_c == null ? null : system.cpu_temp_c < 75);
    // health.arena: {state, agrees, messages} when the service has an arena monitor.
    const arena = health.arena;
    pill("h-arena", !arena ? "arena check n/a" : arena.agrees ? "arena ✓ camera agrees" : `arena: ${arena.state.replace("_", " ")}`,
      !arena || ["off", "idle", "not_calibrated", "waiting"].includes(arena.state) ? null : arena.agrees);
  } catch (error) {
    pill("h-store", "service unreachable", false);
  }
}

// ---------------------------------------------------------------- the board (read-only picture)
function cubes(heavy, light) {
  const out = [];
  for (let i = 0; i < heavy; i++) out.push(el("span", { class: "cube heavy", title: "heavy wound" }));
  for (let i = 0; i < light; i++) out.push(el("span", { class: "cube light", title: "light wound" }));
  return out;
}

function renderFighter(snapshot, p) {
  const box = $(`fighter-${p}`);
  const f = snapshot.players[p];
  const playing = snapshot.phase === "playing";
  box.classList.toggle("active", playing && snapshot.active === p);
  const skills = (f.skills.face_up || []).map((s) => el("span", { class: "skill", title: s.text || "" },
    `★ ${s.name} (${s.initiative})`));
  if (f.skills.face_down) skills.push(el("span", { class: "skill" }, "★ one skill face down"));
  const tokens = Object.entries(f.tokens || {}).filter(([, n]) => n).map(([t, n]) => `${t} ×${n}`).join(", ");
  const victory = [];
  for (let i = 0; i < f.victory_tokens; i++) victory.push(el("span", { class: "token", title: "victory token" }, "V"));
  box.replaceChildren(
    el("div", { class: "name" }, f.name),
    el("div", { class: "sub" }, `${f.fighter}${f.class ? " · " + f.class : ""} · on ${f.space}`),
    el("div", { class: "cubes", "aria-label": `${f.wounds.heavy} heavy and ${f.wounds.light} light wounds` },
      cubes(f.wounds.heavy, f.wounds.light),
      f.wounds.heavy + f.wounds.light === 0 ? el("span", { class: "muted" }, "no wounds") : null),
    el("div", { class: "facts" },
      el("span", {}, `Hand ${f.hand_size}`),
      el("span", {}, "Victory "), ...victory, f.victory_tokens ? null : el("span", { class: "muted" }, "0"),
      tokens ? el("span", {}, tokens) : null),
    ...skills,
  );
}

function renderArena(snapshot) {
  const arena = snapshot.arena;
  const here = {};
  snapshot.players.forEach((f, p) => { here[f.space] = p; });
  const edges = new Set((arena.dangerous_edges || []).flat ? (arena.dangerous_edges || []).flat() : []);
  $("arena").replaceChildren(...arena.spaces.map((space) => {
    const marks = [];
    if ((arena.candles || []).includes(space)) marks.push("Candle");
    if ((arena.corridors || []).includes(space)) marks.push("Corridor");
    for (const [token, n] of Object.entries((arena.space_tokens || {})[space] || {})) marks.push(`${token}×${n}`);
    const p = here[space];
    return el("div", { class: `space${edges.has(space) ? " edge" : ""}`, "data-space": space,
                       title: edges.has(space) ? "dangerous edge" : "" },
      el("span", { class: "id" }, space),
      p === undefined ? el("span", {}, "") : el("span", { class: `who p${p}` }, String(p + 1)),
      el("span", { class: "marks" }, marks.join(" ") || (edges.has(space) ? "edge" : "")));
  }));
}

function renderRow(snapshot) {
  const cards = snapshot.row.map((c) => el("div", { class: `card ${c.type}`, "data-card": c.name },
    el("div", { class: "cname" }, c.name),
    el("div", { class: "cubes" }, cubes(c.heavy, c.light), c.ko ? el("strong", {}, " K.O.") : null),
    el("div", { class: "meta" }, `${c.type} · range ${c.range}${c.symbols.length ? " · " + c.symbols.join(", ") : ""}`),
    c.text ? el("div", { class: "meta" }, c.text) : null));
  while (cards.length < 4) cards.push(el("div", { class: "card empty" }, "—"));
  $("row").replaceChildren(...cards);
}

function describePending(snapshot) {
  const pend = snapshot.pending;
  if (!pend) return null;
  const who = pend.player === null || pend.player === undefined ? "" : playerName(snapshot, pend.player);
  switch (pend.kind) {
    case "reveal": return "Turn up the next Attack card";
    case "draft": return `${who} drafts a card from the Attack Row`;
    case "first_player": return "Initiatives tie: who goes first?";
    case "block": return `${who} may block ${pend.attack} (${pend.heavy} heavy, ${pend.light} light)`;
    case "reaction": return `${who} may react: ${pend.options.join(", ")}`;
    case "choice": return `${who}: ${pend.prompt}`;
    case "manual": return `Carry out: ${pend.text}`;
    case "discard": return `${who} discards ${pend.count} over the hand limit`;
    case "knockdown_offer": return `${who} may start a Knockdown Test (${pend.attack})`;
    case "knockdown_test": return `Knockdown Test: ${who} builds ${pend.heavy} heavy + ${pend.light} light`;
    default: return `${pend.kind}${who ? " · " + who : ""}`;
  }
}

function renderBoard(state) {
  const snapshot = state.snapshot;
  if (!snapshot) {
    $("s-round").textContent = "No match yet";
    $("s-active").textContent = session.referee ? "Start one on the New match page." : "Waiting for the referee.";
    return;
  }
  const finished = snapshot.phase === "finished";
  $("s-round").textContent = finished ? `${playerName(snapshot, snapshot.winner)} wins the match`
    : `Round ${snapshot.round}`;
  $("s-active").textContent = snapshot.phase === "playing"
    ? `▶ ${playerName(snapshot, snapshot.active)}` : finished ? "" : snapshot.phase.replace("_", " ");
  $("s-actions").textContent = snapshot.phase === "playing" ? `${snapshot.actions_left} action${snapshot.actions_left === 1 ? "" : "s"} left` : "";
  $("s-deck").textContent = `Deck ${snapshot.deck_count} · discard ${snapshot.discard_count}`;
  renderFighter(snapshot, 0);
  renderFighter(snapshot, 1);
  renderArena(snapshot);
  renderRow(snapshot);
  renderArenaBanner(state.arena);
  const pending = describePending(snapshot);
  $("pending").hidden = !pending;
  $("pending").textContent = pending || "";
  renderLog(snapshot.log || []);
}

// The arena camera's reading, when the service has one (state.arena): a banner when it
// disagrees with the tracker (with the camera's proposed Move and the referee's fixes), and
// when the view has drifted, lost markers or was never calibrated (with a recalibration).
function renderArenaBanner(arena) {
  const banner = $("arena-banner");
  if (!banner) return;
  const disagrees = arena && arena.state === "disagrees" && !arena.dismissed;
  const needsCalibration = arena && ["recalibrate", "not_calibrated"].includes(arena.state);
  const show = disagrees || needsCalibration;
  banner.hidden = !show;
  if (!show) return;
  const buttons = [];
  if (session.referee && page !== "replay") {
    if (disagrees && arena.proposal) {
      buttons.push(el("button", { type: "button", class: "btn primary", "data-arena": "apply",
        onclick: () => post("/api/actions", arena.proposal).catch(() => {}) },
        `Record it: ${actionLabel(arena.proposal, latest && latest.snapshot)}`));
    }
    if (disagrees) {
      buttons.push(el("button", { type: "button", class: "btn", "data-arena": "fix",
        onclick: () => post("/api/arena/fix").catch(() => {}) }, "Tracker is wrong: fix it"));
      buttons.push(el("button", { type: "button", class: "btn", "data-arena": "dismiss",
        onclick: () => post("/api/arena/dismiss").catch(() => {}) }, "Camera is wrong: dismiss"));
    }
    buttons.push(el("button", { type: "button", class: "btn", "data-arena": "calibrate",
      onclick: () => post("/api/arena/calibrate").catch(() => {}) },
      needsCalibration ? "Calibrate now (clear the board first)" : "Recalibrate"));
  }
  const title = disagrees ? "Arena camera disagrees" : "Arena camera needs calibrating";
  banner.replaceChildren(el("strong", {}, title),
    el("ul", {}, (arena.messages || []).map((m) => el("li", {}, m))), el("div", { class: "buttons" }, buttons));
}

const CORRECTION_KINDS = new Set(["adjust", "correction", "undo", "override"]);

function renderLog(entries) {
  const log = $("log");
  if (!log) return;
  log.replaceChildren(...entries.slice(-60).reverse().map((entry) =>
    el("li", { value: entry.seq, class: CORRECTION_KINDS.has(entry.kind) ? "correction" : "" }, entry.text)));
}

// ---------------------------------------------------------------- the Knockdown Test overlay
const countdown = { deadline: null, frame: null };

function tickCountdown() {
  const node = $("kd-count");
  if (countdown.deadline === null) return;
  const left = Math.max(0, Math.ceil((countdown.deadline - performance.now()) / 1000));
  node.textContent = String(left);
  node.classList.toggle("urgent", left <= 3);
  countdown.frame = requestAnimationFrame(tickCountdown);
}

function setCountdown(secondsLeft) {
  // The server speaks in whole seconds (as the buzzer beeps); the tablet counts between them.
  cancelAnimationFrame(countdown.frame);
  countdown.deadline = secondsLeft === null ? null : performance.now() + secondsLeft * 1000;
  if (countdown.deadline !== null) tickCountdown();
}

function kdButton(label, cls, action, body) {
  return el("button", { type: "button", class: `btn ${cls}`, "data-kd": action,
    onclick: () => post(`/api/knockdown/${action}`, body).catch(() => {}) }, label);
}

function diceValues() {
  return [0, 1, 2].map((i) => Number($(`die-${i}`).value));
}

function updateDiceSum(test) {
  const dice = diceValues();
  const complete = dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  const sum = dice.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  $("dice-sum").textContent = complete ? String(sum) : "–";
  $("dice-sum").className = complete ? (sum >= test.wounds ? "ok" : "bad") : "";
  $("dice-wounds").textContent = String(test.wounds);
  const enter = document.querySelector('[data-kd="dice-enter"]');
  if (enter) enter.disabled = !complete;
}

// The tower judge's reason codes (issue 5) in words a player reads at arm's length: a fail says
// which rule the tower broke, an uncertain verdict which rule the camera could not check. Anything
// else (a sentence of the flow's own) is shown as sent; the code stays in the item's title.
const TOWER_RULES = {
  ground_contacts: "only one cube on the table",
  cube_neighbours: "no cube touching more than two others",
  not_one_structure: "all the cubes in one tower",
  cube_count: "exactly the fighter's heavy and light cubes",
  moving: "the tower standing still",
  hand: "no hand touching the tower",
};
const CAMERA_TROUBLE = {
  mat_not_visible: "The camera cannot see the build mat",
  camera_lost: "The camera stopped sending pictures",
};

function reasonText(code, verdict) {
  if (CAMERA_TROUBLE[code]) return CAMERA_TROUBLE[code];
  if (!TOWER_RULES[code]) return code;
  return `${verdict === "fail" ? "Broken" : "Could not check"}: ${TOWER_RULES[code]}`;
}

function renderOverlay(state) {
  const overlay = $("kd");
  if (!overlay) return;
  const test = state.knockdown || { state: "idle" };
  const snapshot = state.snapshot;
  overlay.hidden = test.state === "idle" || !snapshot;
  overlay.dataset.state = test.state;
  if (overlay.hidden) { setCountdown(null); return; }
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  $("kd-who").textContent = test.variant === "dice"
    ? `${playerName(snapshot, test.player)} rolls three dice: the sum must reach ${plural(test.wounds, "wound")}`
    : `${playerName(snapshot, test.player)} builds ${test.heavy} heavy + ${test.light} light (${plural(test.wounds, "cube")})`;
  $("kd-title").textContent = test.variant === "dice" ? "Knockdown Test · dice" : "Knockdown Test";
  // Before and during the build: the tower may be taller than the camera sees; with an uncertain
  // verdict, the verdict's own view_warning (its reasons stay the judge's codes).
  const warning = test.state === "verdict" ? test.verdict && test.verdict.view_warning : test.view_warning;
  $("kd-warning").hidden = !warning;
  $("kd-warning").textContent = warning || "";
  setCountdown(test.state === "counting" ? test.seconds_left : null);
  if (test.state !== "counting") $("kd-count").textContent = test.state === "judging" ? "…" : "";
  const verdict = test.state === "verdict" ? test.verdict : null;
  $("kd-verdict").hidden = !verdict;
  if (verdict) {
    const word = $("kd-verdict-word");
    word.textContent = { pass: "PASS", fail: "FAIL", uncertain: "UNCERTAIN" }[verdict.verdict] || verdict.verdict;
    word.className = `verdict-${verdict.verdict}`;
    $("kd-confidence").textContent = `${Math.round(verdict.confidence * 100)}% sure`;
    $("kd-reasons").replaceChildren(...verdict.reasons.map((code) =>
      el("li", { "data-reason": code, title: code }, reasonText(code, verdict.verdict))));
    const img = $("kd-snapshot");
    img.hidden = !verdict.has_image;
    if (verdict.has_image) img.src = `/api/knockdown/snapshot.png?v=${state.version}`;
    $("kd-auto").textContent = test.auto_confirm_in === null ? "The referee decides."
      : `Confirms itself in ${test.auto_confirm_in} s unless overridden.`;
  }
  const dice = test.variant === "dice" && test.state === "armed";
  $("kd-dice").hidden = !dice;
  const buttons = [];
  if (session.referee) {
    if (dice) {
      buttons.push(el("button", { type: "button", class: "btn primary", "data-kd": "dice-enter", disabled: true,
        onclick: () => post("/api/knockdown/dice", { dice: diceValues() }).catch(() => {}) }, "Enter dice"));
      buttons.push(kdButton("Roll for us", "", "dice"));
    } else if (test.state === "armed") {
      buttons.push(kdButton("▶ Start countdown", "primary big", "start"));
      buttons.push(kdButton("Tower stands (pass)", "good", "override", { passed: true }));
      buttons.push(kdButton("Tower fell (fail)", "bad", "override", { passed: false }));
    } else if (test.state === "counting") {
      buttons.push(kdButton("✋ Done: judge now", "primary big", "done"));
      buttons.push(kdButton("Cancel", "", "cancel"));
    } else if (test.state === "verdict" || test.state === "judging") {
      if (verdict) {
        const confirm = kdButton("✓ Confirm", "primary", "confirm");
        confirm.disabled = verdict.verdict === "uncertain";
        buttons.push(confirm);
      }
      buttons.push(kdButton("Override: pass", "good", "override", { passed: true, reason: "referee override" }));
      buttons.push(kdButton("Override: fail", "bad", "override", { passed: false, reason: "referee override" }));
      buttons.push(kdButton("Retry", "", "cancel"));
    }
  }
  $("kd-buttons").replaceChildren(...buttons);
  if (dice) {
    for (const input of document.querySelectorAll(".die")) input.oninput = () => updateDiceSum(test);
    updateDiceSum(test);
  }
}

// ---------------------------------------------------------------- referee controls
function cardList(cards) { return cards.join(" + "); }

function actionLabel(action, snapshot) {
  const who = action.player === undefined ? "" : playerName(snapshot, action.player);
  switch (action.type) {
    case "move": return `Move to ${action.to}`;
    case "attack": return `Attack with ${action.card}`;
    case "combo": return "Combo…";
    case "special": return `${action.name} (pay ${cardList(action.pay)})`;
    case "dash": return `Dash: discard ${action.pay}`;
    case "end_combo": return "End Combo";
    case "corridor": return `Corridor to ${action.to}`;
    case "block": {
      const parts = [];
      if (action.reduce) parts.push(`−${action.reduce.heavy} heavy −${action.reduce.light} light`);
      if (action.cancel_effect) parts.push("cancel effect");
      return `Block with ${cardList(action.cards)}${parts.length ? " (" + parts.join(", ") + ")" : ""}`;
    }
    case "no_block": return `${who}: no block`;
    case "react": return `React: ${action.name} (pay ${cardList(action.pay)})`;
    case "no_reaction": return `${who}: no reaction`;
    case "choose": return `Choose ${action.option}`;
    case "discard": return `Discard ${action.card}`;
    case "knockdown_test": return action.initiate ? "Start a Knockdown Test" : "No Knockdown Test";
    case "reveal": return `Reveal ${action.card}`;
    case "draft": return `${who} drafts ${action.card}`;
    case "keep_skill": return `${who} keeps ${action.card}`;
    case "place_skills": return `${who}: ${action.face_up} face up`;
    case "first_player": return `${who} goes first`;
    case "resolve_manual": return "Done: effect carried out";
    default: return `${action.type} ${JSON.stringify(action)}`;
  }
}

const ACTION_GROUPS = { move: "Move", corridor: "Move", attack: "Attack", combo: "Combo", special: "Combo",
  dash: "Combo", end_combo: "Combo", reveal: "Reveal a card from the deck", draft: "Draft" };
// The overlay records tower and dice results, so the flow logs camera, override and dice seed.
const OVERLAY_TYPES = new Set(["tower", "dice"]);

function renderActions(actions, snapshot, customDeck = false) {
  const box = $("actions");
  const shown = actions.filter((a) => !OVERLAY_TYPES.has(a.type));
  let group = null;
  const children = [];
  for (const action of shown) {
    const name = ACTION_GROUPS[action.type] || "Respond";
    if (name !== group) { children.push(el("div", { class: "group" }, name)); group = name; }
    children.push(el("button", {
      type: "button", class: `btn action-${action.type}`, "data-event": JSON.stringify(action),
      onclick: () => post("/api/actions", action).catch(() => {}),
    }, actionLabel(action, snapshot)));
  }
  if (!children.length && snapshot && snapshot.phase !== "finished" && !(snapshot.pending && snapshot.pending.kind === "knockdown_test")) {
    children.push(el("p", { class: "muted" }, snapshot.phase === "skill_draft" ? "Deal the skill cards above." : "Nothing to choose right now."));
  }
  if (snapshot && snapshot.phase === "finished") {
    children.push(el("a", { class: "btn primary", href: "/new" }, "New match"));
  }
  box.replaceChildren(...children);
  const reveal = snapshot && snapshot.pending && snapshot.pending.kind === "reveal";
  $("custom-card").hidden = !(reveal && customDeck);
}

const deal = { picked: new Set(), options: null };

function renderDeal(reveal, snapshot) {
  const box = $("deal");
  const skills = reveal && reveal.kind === "skills" ? reveal : null;
  box.hidden = !skills;
  if (!skills) { deal.options = null; return; }
  const key = `${skills.player}:${skills.cards.join("|")}`;
  if (deal.options !== key) { deal.options = key; deal.picked.clear(); }
  $("deal-player").textContent = playerName(snapshot, skills.player);
  const refresh = () => {
    $("deal-cards").replaceChildren(...skills.cards.map((name) => el("button", {
      type: "button", class: "btn chip", "data-skill": name, "aria-pressed": String(deal.picked.has(name)),
      onclick: () => {
        if (deal.picked.has(name)) deal.picked.delete(name);
        else if (deal.picked.size < skills.count) deal.picked.add(name);
        refresh();
      },
    }, name)));
    $("deal-go").disabled = deal.picked.size !== skills.count;
  };
  $("deal-random").onclick = () => {
    const pool = [...skills.cards];
    deal.picked.clear();
    while (deal.picked.size < skills.count && pool.length) {
      deal.picked.add(pool.splice(Math.floor(Math.random() * pool.length), 1)[0]);
    }
    refresh();
  };
  $("deal-go").onclick = () => post("/api/actions",
    { type: "deal_skills", player: skills.player, cards: [...deal.picked] }).catch(() => {});
  refresh();
}

async function refreshControls(state) {
  const snapshot = state.snapshot;
  $("undo").hidden = !(session.referee && state.match && state.match.events > 0);
  if (!session.referee || !snapshot) {
    if (session.referee) renderActions([], null);
    return;
  }
  const asked = state.version;
  const [legal, extras] = await Promise.all([getJSON("/api/legal"), getJSON("/dashboard/api/table")]);
  if (asked !== latest.version) return; // a newer state arrived meanwhile; it refreshes itself
  renderDeal(extras.reveal, snapshot);
  renderActions(legal.actions, snapshot, extras.custom_deck);
  $("actions").dataset.version = String(state.version);
  const select = $("adjust-player");
  select.options[0].textContent = playerName(snapshot, 0);
  select.options[1].textContent = playerName(snapshot, 1);
}

function showRefereeParts() {
  const login = $("login");
  if (login) login.hidden = session.referee;
  if ($("referee")) $("referee").hidden = !session.referee;
}

function setupTableControls() {
  $("login").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await post("/api/login", { pin: $("pin").value.trim() });
      session.referee = answer.referee;
      session.csrf = answer.csrf_token;
      $("pin").value = "";
      showRefereeParts();
      if (latest) onState(latest);
    } catch (error) { /* toast shown */ }
  });
  $("tower-calibrate").addEventListener("click", calibrateTower);
  $("undo").addEventListener("click", () => post("/api/undo", { reason: "undo from the tablet" }).catch(() => {}));
  $("adjust").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    post("/api/actions", { type: "adjust_wounds", player: Number(form.get("player")), heavy: Number(form.get("heavy")),
      light: Number(form.get("light")), reason: String(form.get("reason")) })
      .then(() => event.target.reset()).catch(() => {});
  });
  $("custom-card").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const type = String(form.get("type"));
    post("/api/actions", { type: "reveal", custom: { name: String(form.get("name")), heavy: Number(form.get("heavy")),
      light: Number(form.get("light")), range: String(form.get("range")), type, ko: form.get("ko") === "on",
      symbols: type === "strike" ? [] : [type] } }).then(() => event.target.reset()).catch(() => {});
  });
}

// ---------------------------------------------------------------- the tower camera's calibration
// state.tower (null without a tower camera judge): {calibrated, learned, measured}. The button
// measures with the camera the service owns; what it measured (or why it could not) stays shown.
const towerCalibration = { error: null, busy: false, measured: undefined };

function renderTowerCalibration(tower) {
  const box = $("cameras");
  if (!box) return;
  box.hidden = !tower;
  if (!tower) return;
  const measured = JSON.stringify(tower.measured);
  if (measured !== towerCalibration.measured) {
    towerCalibration.measured = measured;
    towerCalibration.error = null;  // a newer calibration (maybe from another tablet) replaces an old error
  }
  const button = $("tower-calibrate");
  button.disabled = towerCalibration.busy;
  button.textContent = towerCalibration.busy ? "Calibrating… keep the mat still" : "Calibrate tower camera";
  const result = $("tower-calibration");
  result.dataset.outcome = towerCalibration.error ? "error" : tower.calibrated ? "calibrated" : "not_calibrated";
  if (towerCalibration.error) {
    result.replaceChildren(el("strong", {}, "Not calibrated: "), towerCalibration.error);
    return;
  }
  const cubes = tower.learned.tallest_tower_cubes;
  const headline = !tower.calibrated ? "The tower camera was never calibrated"
    : `${tower.measured ? "Tower camera calibrated" : "Calibrated"}: the picture holds a tower up to ${cubes} cubes`;
  result.replaceChildren(el("strong", {}, headline), el("ul", {}, (tower.measured || []).map((m) => el("li", {}, m))));
}

async function calibrateTower() {
  towerCalibration.busy = true;
  towerCalibration.error = null;
  renderTowerCalibration(latest && latest.tower);
  try {
    await post("/api/tower/calibrate");
  } catch (error) {
    towerCalibration.error = error.message;  // the service's words (marker not visible, no cube found...)
  }
  towerCalibration.busy = false;
  renderTowerCalibration(latest && latest.tower);
}

// ---------------------------------------------------------------- corrections (the audit log)
function describeAudit(entry) {
  const d = entry.detail || {};
  const by = entry.who ? ` · ${entry.who}` : "";
  switch (entry.kind) {
    case "undo": return `Undone: ${d.event ? d.event.type : "an event"}${d.reason ? " (" + d.reason + ")" : ""}${by}`;
    case "override": return `Override: tower ${d.passed ? "passed" : "failed"}, camera said ${d.camera ? d.camera.verdict : "nothing"}`
      + `${d.reason ? " (" + d.reason + ")" : ""}${by}`;
    case "referee_decision": return `Referee decided: tower ${d.passed ? "passed" : "failed"}${by}`;
    case "dice_rolled": return `Dice rolled for the table: ${(d.dice || []).join(" + ")} (seed ${d.seed})`;
    case "dice_entered": return `Dice entered: ${(d.dice || []).join(" + ")}${by}`;
    default: return null;  // countdown starts and ends, camera verdicts: not corrections
  }
}

async function refreshCorrections(state) {
  const list = $("corrections");
  if (!list || !state.match) return;
  const { audit } = await getJSON(`/api/matches/${state.match.id}/audit`);
  if (state !== latest) return;
  const lines = audit.map(describeAudit).filter(Boolean).reverse();
  list.replaceChildren(...(lines.length ? lines.map((text) => el("li", {}, text))
    : [el("li", { class: "muted" }, "None yet.")]));
}

// ---------------------------------------------------------------- live state over SSE
let latest = null;

function onState(state) {
  latest = state;
  document.body.dataset.version = String(state.version);
  renderBoard(state);
  renderOverlay(state);
  if (page === "table") {
    renderTowerCalibration(state.tower);
    refreshControls(state).catch((error) => toast(error.message));
    refreshCorrections(state).catch((error) => toast(error.message));
  }
}

function connect() {
  const source = new EventSource("/api/events");  // the browser resends Last-Event-ID itself
  source.addEventListener("state", (event) => onState(JSON.parse(event.data)));
  source.onopen = () => pill("h-live", "● live", true);
  source.onerror = () => pill("h-live", "reconnecting…", false);
  return source;
}

// ---------------------------------------------------------------- new match wizard
async function setupWizard() {
  const catalog = await getJSON("/dashboard/api/catalog");
  const byId = Object.fromEntries(catalog.boxes.map((b) => [b.id, b]));
  const chosen = new Set([(catalog.boxes.find((b) => b.id === "practice") || catalog.boxes[0]).id]);
  const form = $("wizard");
  const option = (value, label) => el("option", { value }, label);
  const refresh = () => {
    $("w-boxes").replaceChildren(...catalog.boxes.map((b) => el("button", {
      type: "button", class: "btn chip", "data-box": b.id, "aria-pressed": String(chosen.has(b.id)),
      onclick: () => {
        if (chosen.has(b.id) && chosen.size > 1) chosen.delete(b.id); else chosen.add(b.id);
        refresh();
      },
    }, b.name)));
    const boxes = [...chosen].map((id) => byId[id]);
    for (const select of form.querySelectorAll(".w-fighter")) {
      const keep = select.value;
      select.replaceChildren(option("", "Random"),
        ...boxes.flatMap((b) => b.fighters.map((f) => option(f.name, `${f.name}${f.class ? " · " + f.class : ""}`))));
      select.value = [...select.options].some((o) => o.value === keep) ? keep : "";
    }
    $("w-skills").replaceChildren(option("", "Random"), ...boxes.map((b) => option(b.id, b.name)));
    $("w-arena").replaceChildren(option("", "Random"),
      ...boxes.flatMap((b) => b.arenas.map((a) => option(`${b.id}/${a}`, `${a} (${b.name})`))));
  };
  refresh();
  getJSON("/api/health").then((health) => {
    const hw = health.hardware || {};
    $("w-camera-note").textContent = hw.tower_judge && hw.tower_judge !== "none"
      ? `Towers are judged by the camera (${hw.tower_judge}); the referee confirms or overrides.`
      : "No tower camera on this table: the referee decides every Knockdown Test.";
  });
  await loadSession();
  $("w-login").hidden = session.referee;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const options = { boxes: [...chosen], players: [String(data.get("player0")), String(data.get("player1"))],
      variant: String(data.get("variant")) };
    const fighters = [data.get("fighter0"), data.get("fighter1")];
    if (fighters.every(Boolean)) options.fighters = fighters;
    else if (fighters.some(Boolean)) { toast("Choose both fighters, or leave both on Random"); return; }
    if (data.get("skills_box")) options.skills_box = String(data.get("skills_box"));
    if (data.get("arena")) {
      const [box, arena] = String(data.get("arena")).split("/");
      options.arena_box = box;
      options.arena = arena;
    }
    try {
      await post("/api/matches", options);
      window.location.href = "/";
    } catch (error) { /* toast shown */ }
  });
}

// ---------------------------------------------------------------- history and replay
async function setupHistory() {
  const { matches, current } = await getJSON("/api/matches");
  $("matches").replaceChildren(...matches.map((m) => {
    const players = m.players || ["?", "?"];
    const winner = m.result && m.result.winner !== null && m.result.winner !== undefined ? players[m.result.winner] : "–";
    return el("tr", { "data-match": m.id },
      el("td", {}, String(m.id)),
      el("td", {}, `${players[0]} vs ${players[1]}`),
      el("td", {}, `${m.status.replace("_", " ")}${m.id === current ? " (current)" : ""}`),
      el("td", {}, winner),
      el("td", {}, String(m.events)),
      el("td", {}, el("a", { class: "btn small", href: `/history/${m.id}` }, "Replay"), " ",
        el("a", { class: "btn small", href: `/api/matches/${m.id}/record`, download: "" }, "JSONL")));
  }));
  if (!matches.length) $("matches").replaceChildren(el("tr", {}, el("td", { colspan: 6 }, "No matches yet.")));
}

async function setupReplay() {
  const matchId = document.body.dataset.match;
  const slider = $("r-step");
  const show = async (step) => {
    const data = await getJSON(`/dashboard/api/replay/${matchId}?step=${step}`);
    slider.max = String(data.steps);
    slider.value = String(data.step);
    $("r-label").textContent = `Step ${data.step} / ${data.steps}`;
    $("r-event").textContent = data.event ? JSON.stringify(data.event) : "Set-up";
    document.body.dataset.step = String(data.step);
    renderBoard({ snapshot: data.snapshot });
  };
  const go = (delta) => show(Math.min(Number(slider.max), Math.max(0, Number(slider.value) + delta)));
  $("r-first").onclick = () => show(0);
  $("r-prev").onclick = () => go(-1);
  $("r-next").onclick = () => go(1);
  $("r-last").onclick = () => show(Number(slider.max));
  slider.oninput = () => show(Number(slider.value));
  const first = await getJSON(`/dashboard/api/replay/${matchId}`);
  await show(first.steps);
}

// ---------------------------------------------------------------- start
async function start() {
  refreshHealth();
  setInterval(refreshHealth, 5000);
  if (page === "table" || page === "watch") {
    await loadSession();
    if (page === "table") { setupTableControls(); showRefereeParts(); }
    connect();
  } else {
    pill("h-live", "● online", true);
    if (page === "new") await setupWizard();
    if (page === "history") await setupHistory();
    if (page === "replay") await setupReplay();
  }
}

start().catch((error) => toast(error.message));
