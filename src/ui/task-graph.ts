import type { Task, TaskId, TaskState } from '../lib/index';

/**
 * Lays a session's tasks out as a tree (rows in depth-first order, indented by depth) with the links between
 * them: `child` edges (parent → child agent, drawn solid) and `reference` edges (a task building on another,
 * drawn as arcs on the right). Pure, so it is tested without a browser.
 */
export interface GraphNode {
  readonly id: TaskId;
  readonly title: string;
  readonly state: TaskState;
  readonly depth: number;
  readonly row: number;
  readonly x: number;
  readonly y: number;
}

export interface GraphEdge {
  readonly from: TaskId;
  readonly to: TaskId;
  readonly kind: 'child' | 'reference';
  /** SVG path data. */
  readonly path: string;
}

export interface TaskGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly width: number;
  readonly height: number;
}

export const graphMetrics = { nodeWidth: 210, nodeHeight: 26, rowGap: 10, indent: 22, pad: 6 } as const;

/** Each task's parent for the layout: its `parentTaskId`, else a task that lists it as a `child` reference. */
function parentsOf(tasks: readonly Task[]): Map<TaskId, TaskId> {
  const ids = new Set(tasks.map((t) => t.id));
  const parents = new Map<TaskId, TaskId>();
  for (const task of tasks) {
    if (task.parentTaskId !== null && ids.has(task.parentTaskId)) parents.set(task.id, task.parentTaskId);
  }
  for (const task of tasks) {
    for (const ref of task.references) {
      if (ref.kind === 'child' && ids.has(ref.to) && !parents.has(ref.to) && ref.to !== task.id)
        parents.set(ref.to, task.id);
    }
  }
  // A cycle (which the engine should never produce) would hide its tasks; break it at the first task seen.
  for (const task of tasks) {
    const seen = new Set<TaskId>([task.id]);
    let at = parents.get(task.id);
    while (at !== undefined) {
      if (seen.has(at)) {
        parents.delete(task.id);
        break;
      }
      seen.add(at);
      at = parents.get(at);
    }
  }
  return parents;
}

export function layoutTaskGraph(tasks: readonly Task[]): TaskGraph {
  const { nodeWidth, nodeHeight, rowGap, indent, pad } = graphMetrics;
  const parents = parentsOf(tasks);
  const childrenOf = new Map<TaskId | null, Task[]>();
  for (const task of tasks) {
    const parent = parents.get(task.id) ?? null;
    const list = childrenOf.get(parent) ?? [];
    list.push(task);
    childrenOf.set(parent, list);
  }
  const nodes: GraphNode[] = [];
  const byId = new Map<TaskId, GraphNode>();
  const visit = (task: Task, depth: number) => {
    const row = nodes.length;
    const node: GraphNode = {
      id: task.id,
      title: task.title,
      state: task.state,
      depth,
      row,
      x: pad + depth * indent,
      y: pad + row * (nodeHeight + rowGap),
    };
    nodes.push(node);
    byId.set(task.id, node);
    for (const child of childrenOf.get(task.id) ?? []) visit(child, depth + 1);
  };
  for (const root of childrenOf.get(null) ?? []) visit(root, 0);

  const maxDepth = nodes.reduce((max, n) => Math.max(max, n.depth), 0);
  const rail = pad + maxDepth * indent + nodeWidth;
  const edges: GraphEdge[] = [];
  let widest = rail;
  for (const node of nodes) {
    const parent = parents.get(node.id);
    const from = parent === undefined ? undefined : byId.get(parent);
    if (from) {
      const x = from.x + 10;
      const y = node.y + nodeHeight / 2;
      edges.push({
        from: from.id,
        to: node.id,
        kind: 'child',
        path: `M${x},${from.y + nodeHeight} V${y} H${node.x}`,
      });
    }
  }
  for (const task of tasks) {
    const from = byId.get(task.id);
    if (!from) continue;
    for (const ref of task.references) {
      const to = byId.get(ref.to);
      if (!to || to.id === from.id) continue;
      // A child reference that is already the tree edge is not drawn twice; any other child link is.
      if (ref.kind === 'child' && parents.get(to.id) === from.id) continue;
      const bulge = rail + 16 + 6 * Math.abs(to.row - from.row);
      widest = Math.max(widest, bulge + 4);
      const y1 = from.y + nodeHeight / 2;
      const y2 = to.y + nodeHeight / 2;
      edges.push({
        from: from.id,
        to: to.id,
        kind: ref.kind,
        path: `M${from.x + nodeWidth},${y1} C${bulge},${y1} ${bulge},${y2} ${to.x + nodeWidth + 2},${y2}`,
      });
    }
  }
  const height = nodes.length === 0 ? 0 : pad * 2 + nodes.length * (nodeHeight + rowGap) - rowGap;
  return { nodes, edges, width: widest + pad * 2, height };
}
