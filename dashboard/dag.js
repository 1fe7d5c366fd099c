// The plan as a DAG: Planner → steps (one column per dependency level) → Solver.
//
// Positions come from dagre when it loaded (it orders the nodes of a column to avoid crossings and
// routes edges that skip a level around the nodes in between); the columns are pinned to the
// plan's dependency levels with ranker "none", because the levels ARE the execution order: all
// steps of a level run in parallel once the previous level finished. Without dagre (a static
// deployment that did not copy vendor/), a plain column layout is used: same columns, plan order.
import { formatDuration, s } from "./dom.js";
import { applicableFindings, judgedFindings } from "./findings.js";

const STEP_W = 204;
const STEP_H = 68;
const STAGE_W = 150;
const RANK_SEP = 56;
const NODE_SEP = 18;
const HEADER_H = 30;
const MARGIN = 10;
export const PLANNER_ID = "__planner";
export const SOLVER_ID = "__solver";

const STATUS_TEXT = {
  pending: "pending",
  running: "running",
  completed: "completed",
  failed: "failed",
  skipped: "skipped",
  cancelled: "cancelled",
};
const STATUS_ICON = { pending: "○", running: "●", completed: "✓", failed: "✕", skipped: "–", cancelled: "■" };

/** Nodes (centre x/y, size), edges (polyline points) and column headers for a plan. Pure. */
export function layoutPlan(plan, dagre) {
  const steps = plan?.steps ?? [];
  const levels = plan?.levels?.length ? plan.levels : steps.length ? [steps.map((st) => st.id)] : [];
  const levelOf = new Map();
  levels.forEach((ids, level) => {
    for (const id of ids) levelOf.set(id, level);
  });
  const hasDependants = new Set(steps.flatMap((st) => st.depends_on ?? []));
  const nodes = [
    { id: PLANNER_ID, kind: "planner", column: 0, width: STAGE_W, height: STEP_H },
    ...steps.map((st) => ({
      id: st.id,
      kind: "step",
      column: (levelOf.get(st.id) ?? 0) + 1,
      width: STEP_W,
      height: STEP_H,
    })),
    { id: SOLVER_ID, kind: "solver", column: levels.length + 1, width: STAGE_W, height: STEP_H },
  ];
  const edges = [];
  for (const st of steps) {
    const deps = (st.depends_on ?? []).filter((d) => levelOf.has(d));
    if (deps.length === 0) edges.push({ from: PLANNER_ID, to: st.id });
    for (const dep of deps) edges.push({ from: dep, to: st.id });
    // The solver reads all evidence; drawing only the last step of each chain keeps the graph legible.
    if (!hasDependants.has(st.id)) edges.push({ from: st.id, to: SOLVER_ID });
  }
  if (steps.length === 0) edges.push({ from: PLANNER_ID, to: SOLVER_ID });

  let layout = null;
  if (dagre) {
    try {
      // dagre breaks ties in a column arbitrarily (E2 above E1). Keep the plan's order when that costs
      // no extra edge crossing; otherwise let dagre's crossing minimisation win.
      const free = dagreLayout(dagre, nodes, edges, []);
      const ordered = dagreLayout(dagre, nodes, edges, planOrderConstraints(levels));
      layout = crossings(ordered.edges) <= crossings(free.edges) ? ordered : free;
    } catch {
      layout = null; // never let a layout bug hide the run: fall back to columns
    }
  }
  layout ??= columnLayout(nodes, edges);
  const byId = new Map(layout.nodes.map((n) => [n.id, n]));
  layout.edges = withPorts(layout.edges, byId);

  const columns = [{ label: "Plan", x: 0 }];
  levels.forEach((ids, level) => {
    columns.push({ label: `Level ${level}${ids.length > 1 ? ` · ${ids.length} in parallel` : ""}`, x: 0 });
  });
  columns.push({ label: "Solve", x: 0 });
  for (const node of layout.nodes) {
    const column = columns[node.column];
    if (column) column.x = node.x;
  }
  return { ...layout, columns: columns.filter((c) => c.x > 0) };
}

/** "E1 above E2" for consecutive steps of each level (in LR layouts dagre's left is up). */
function planOrderConstraints(levels) {
  const constraints = [];
  for (const ids of levels) {
    for (let i = 1; i < ids.length; i++) constraints.push({ left: ids[i - 1], right: ids[i] });
  }
  return constraints;
}

/** Number of proper crossings between the edges' polylines (edges sharing an end node do not count). */
export function crossings(edges) {
  let count = 0;
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      const a = edges[i];
      const b = edges[j];
      if (a.from === b.from || a.to === b.to || a.to === b.from || a.from === b.to) continue;
      if (polylinesCross(a.points, b.points)) count += 1;
    }
  }
  return count;
}

function polylinesCross(p, q) {
  for (let i = 1; i < p.length; i++) {
    for (let j = 1; j < q.length; j++) if (segmentsCross(p[i - 1], p[i], q[j - 1], q[j])) return true;
  }
  return false;
}

function segmentsCross(a, b, c, d) {
  const orient = (p, q, r) => Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  return orient(a, b, c) * orient(a, b, d) < 0 && orient(c, d, a) * orient(c, d, b) < 0;
}

function dagreLayout(dagre, nodes, edges, constraints) {
  const g = new dagre.graphlib.Graph();
  // ranker "none" keeps the ranks given on the nodes. dagre halves ranksep and doubles every rank
  // internally (room for edge labels), hence rank = 2 × column.
  g.setGraph({
    rankdir: "LR",
    ranker: "none",
    nodesep: NODE_SEP,
    ranksep: RANK_SEP,
    marginx: MARGIN,
    marginy: MARGIN,
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes)
    g.setNode(node.id, { width: node.width, height: node.height, rank: 2 * node.column });
  for (const edge of edges) g.setEdge(edge.from, edge.to);
  dagre.layout(g, constraints.length ? { constraints } : undefined);
  const graph = g.graph();
  return {
    engine: "dagre",
    width: Math.ceil(graph.width ?? 0),
    height: Math.ceil((graph.height ?? 0) + HEADER_H),
    nodes: nodes.map((node) => {
      const placed = g.node(node.id);
      return { ...node, x: placed.x, y: placed.y + HEADER_H };
    }),
    edges: edges.map((edge) => ({
      ...edge,
      points: (g.edge(edge.from, edge.to)?.points ?? []).map((p) => ({ x: p.x, y: p.y + HEADER_H })),
    })),
  };
}

function columnLayout(nodes, edges) {
  const columns = [];
  for (const node of nodes) {
    columns[node.column] ??= [];
    columns[node.column].push(node);
  }
  const tallest = Math.max(...columns.map((c) => (c?.length ?? 0) * (STEP_H + NODE_SEP) - NODE_SEP));
  const placed = new Map();
  let x = MARGIN;
  for (const column of columns) {
    if (!column) continue;
    const width = Math.max(...column.map((n) => n.width));
    const top = MARGIN + HEADER_H + (tallest - (column.length * (STEP_H + NODE_SEP) - NODE_SEP)) / 2;
    column.forEach((node, i) => {
      placed.set(node.id, { ...node, x: x + width / 2, y: top + i * (STEP_H + NODE_SEP) + STEP_H / 2 });
    });
    x += width + RANK_SEP;
  }
  return {
    engine: "columns",
    width: Math.ceil(x - RANK_SEP + MARGIN),
    height: Math.ceil(tallest + 2 * MARGIN + HEADER_H),
    nodes: nodes.map((n) => placed.get(n.id)),
    edges: edges.map((edge) => {
      const a = placed.get(edge.from);
      const b = placed.get(edge.to);
      return {
        ...edge,
        points: [
          { x: a.x + a.width / 2, y: a.y },
          { x: b.x - b.width / 2, y: b.y },
        ],
      };
    }),
  };
}

/**
 * A smooth path leaving the source's right side and entering the target's left side horizontally,
 * through dagre's bend points (Catmull-Rom converted to cubic Béziers).
 */
function pathThrough(points) {
  if (points.length < 2) return "";
  const first = points[0];
  const last = points[points.length - 1];
  const pts = [{ x: first.x - 40, y: first.y }, ...points, { x: last.x + 40, y: last.y }];
  let d = `M${first.x},${first.y}`;
  for (let i = 1; i < pts.length - 2; i++) {
    const [p0, p1, p2, p3] = [pts[i - 1], pts[i], pts[i + 1], pts[i + 2]];
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    d += ` C${round(c1.x)},${round(c1.y)} ${round(c2.x)},${round(c2.y)} ${round(p2.x)},${round(p2.y)}`;
  }
  return d;
}

const round = (n) => Math.round(n * 10) / 10;

/**
 * Edges leave a node on its right side and enter on its left (ports), spread over the side in the
 * order of the other end, so several edges into one step stay distinguishable. Between adjacent
 * columns nothing is in the way and dagre's bend points are dropped; longer edges keep them.
 */
function withPorts(edges, byId) {
  const routed = edges.map((edge) => {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    const inner = to.column - from.column > 1 ? edge.points.slice(1, -1) : [];
    // Where the edge comes from / goes to, seen from each end: decides the port order.
    const towardsTarget = inner[0] ?? to;
    const towardsSource = inner[inner.length - 1] ?? from;
    return { edge, from, to, inner, outKey: towardsTarget.y, inKey: towardsSource.y };
  });
  const ports = (list, side) => {
    const byNode = new Map();
    for (const r of list) {
      const node = side === "out" ? r.from : r.to;
      if (!byNode.has(node.id)) byNode.set(node.id, []);
      byNode.get(node.id).push(r);
    }
    for (const group of byNode.values()) {
      group.sort((a, b) => (side === "out" ? a.outKey - b.outKey : a.inKey - b.inKey));
      group.forEach((r, i) => {
        const node = side === "out" ? r.from : r.to;
        const spread = Math.min(node.height * 0.5, (group.length - 1) * 12);
        const y = node.y - spread / 2 + (group.length > 1 ? (spread * i) / (group.length - 1) : 0);
        if (side === "out") r.start = { x: node.x + node.width / 2, y };
        else r.end = { x: node.x - node.width / 2 - 2, y };
      });
    }
  };
  ports(routed, "out");
  ports(routed, "in");
  return routed.map((r) => ({ ...r.edge, points: [r.start, ...r.inner, r.end] }));
}

function truncate(text, max) {
  const value = String(text ?? "");
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/**
 * Draws the DAG into a container and keeps it current: the layout is rebuilt only when the plan
 * changes; status updates touch attributes of the existing nodes, so keyboard focus stays put.
 */
export class DagView {
  constructor(container, { dagre, onSelect }) {
    this.container = container;
    this.dagre = dagre;
    this.onSelect = onSelect;
    this.signature = null;
    this.nodeEls = new Map();
    this.edgeEls = [];
  }

  update(view, selectedId) {
    const signature = JSON.stringify(
      (view.plan?.steps ?? []).map((st) => [st.id, st.tool, st.depends_on]).concat([view.plan?.levels ?? []]),
    );
    if (signature !== this.signature) {
      this.signature = signature;
      this.#build(view.plan);
    }
    const byId = new Map(view.steps.map((st) => [st.id, st]));
    const statusOf = (id) =>
      id === PLANNER_ID ? view.planStage : id === SOLVER_ID ? view.solverStage : byId.get(id)?.status;
    for (const [id, el] of this.nodeEls) {
      const step = byId.get(id);
      const status = statusOf(id) ?? "pending";
      let detail = "";
      if (id === PLANNER_ID) {
        const first = view.planSource === "cache" ? "cached plan, no LLM call" : "1 LLM call";
        const calls = view.replans ? `replanned ×${view.replans}` : first;
        detail = view.plan ? `${view.steps.length} steps · ${calls}` : calls;
      } else if (id === SOLVER_ID)
        // A rejected run's result is Finalize's note, not the solver's verdicts.
        detail = view.result && view.solverStage === "completed" ? summaryCounts(view.result) : "1 LLM call";
      else if (status === "running") detail = "running…";
      else detail = formatDuration(step?.duration_ms);
      this.#paint(el, status, detail, id === selectedId, step);
    }
    for (const { el, from, to } of this.edgeEls) {
      const source = statusOf(from);
      const target = statusOf(to);
      el.setAttribute(
        "class",
        `edge ${source === "completed" ? "edge-done" : ""} ${target === "running" ? "edge-active" : ""}`,
      );
    }
  }

  #build(plan) {
    const layout = layoutPlan(plan, this.dagre);
    this.layout = layout;
    const svg = s("svg", {
      class: "dag",
      width: layout.width,
      height: layout.height,
      // Scales down to fit the card, but not below 85 % (text would get too small): then it scrolls.
      style: `max-width: ${layout.width}px; min-width: ${Math.round(layout.width * 0.85)}px`,
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      role: "group",
      "aria-label": "Plan: steps by dependency level",
      "data-layout": layout.engine,
      "data-testid": "plan-dag",
    });
    svg.append(
      s(
        "defs",
        {},
        s(
          "marker",
          {
            id: "arrow",
            viewBox: "0 0 10 10",
            refX: 9,
            refY: 5,
            markerWidth: 7,
            markerHeight: 7,
            orient: "auto-start-reverse",
          },
          s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }),
        ),
      ),
    );
    for (const column of layout.columns) {
      svg.append(
        s("text", { class: "column-label", x: column.x, y: 16, "text-anchor": "middle" }, column.label),
      );
    }
    this.edgeEls = layout.edges.map((edge) => {
      const el = s("path", { class: "edge", d: pathThrough(edge.points), "marker-end": "url(#arrow)" });
      svg.append(el);
      return { el, from: edge.from, to: edge.to };
    });
    this.nodeEls = new Map();
    const stepsById = new Map((plan?.steps ?? []).map((st) => [st.id, st]));
    for (const node of layout.nodes) {
      const el = this.#node(node, stepsById.get(node.id));
      svg.append(el);
      this.nodeEls.set(node.id, el);
    }
    this.container.replaceChildren(svg);
  }

  #node(node, step) {
    const { width: w, height: hgt } = node;
    const isStage = node.kind !== "step";
    const title = node.kind === "planner" ? "Planner" : node.kind === "solver" ? "Solver" : node.id;
    const subtitle = step?.tool;
    const testid = isStage ? `stage-${node.kind}` : `step-${node.id}`;
    const g = s(
      "g",
      {
        class: `node node-${node.kind}`,
        transform: `translate(${node.x - w / 2},${node.y - hgt / 2})`,
        tabindex: 0,
        role: "button",
        "data-testid": testid,
        "data-step": node.id,
        "data-level": node.kind === "step" ? node.column - 1 : null,
      },
      s(
        "title",
        {},
        node.kind === "planner"
          ? "Planner: one LLM call writes the plan"
          : node.kind === "solver"
            ? "Solver: one LLM call turns the evidence into verdicts"
            : `${node.id} · ${step?.tool ?? ""}\n${step?.description ?? ""}`,
      ),
      s("rect", { class: "node-box", width: w, height: hgt, rx: isStage ? hgt / 2 : 10 }),
      isStage ? null : s("rect", { class: "node-bar", x: 0, y: 0, width: 6, height: hgt, rx: 3 }),
      s("text", { class: "node-title", x: isStage ? 24 : 18, y: 24 }, title),
      // Steps: status top right, tool below the id. Stages (no tool) have the status on line 2.
      isStage
        ? s("text", { class: "node-icon", x: 24, y: 42 }, "")
        : s("text", { class: "node-icon", x: w - 14, y: 24, "text-anchor": "end" }, ""),
      isStage ? null : s("text", { class: "node-sub", x: 18, y: 42 }, truncate(subtitle, 26)),
      s("text", { class: "node-detail", x: isStage ? 24 : 18, y: 58 }, ""),
    );
    const select = () => this.onSelect?.(node.id);
    g.addEventListener("click", select);
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select();
      }
    });
    return g;
  }

  #paint(el, status, detail, selected, step) {
    const kind = el.classList.contains("node-step")
      ? "node-step"
      : el.classList.contains("node-planner")
        ? "node-planner"
        : "node-solver";
    el.setAttribute("class", `node ${kind} status-${status}${selected ? " selected" : ""}`);
    el.dataset.status = status;
    el.setAttribute("aria-pressed", selected ? "true" : "false");
    const name = step ? `${step.id}, ${step.tool}` : el.dataset.step === PLANNER_ID ? "Planner" : "Solver";
    el.setAttribute("aria-label", `${name}: ${STATUS_TEXT[status] ?? status}${detail ? `, ${detail}` : ""}`);
    el.querySelector(".node-icon").textContent =
      `${STATUS_ICON[status] ?? ""} ${STATUS_TEXT[status] ?? status}`;
    el.querySelector(".node-detail").textContent = detail;
  }
}

function summaryCounts(result) {
  const judged = judgedFindings(result);
  const applicable = applicableFindings(result);
  if (judged.length === 0 && applicable !== null) return `${applicable.length} apply, not judged`;
  return `${judged.filter((c) => c.status === "fulfilled").length}/${judged.length} fulfilled`;
}
