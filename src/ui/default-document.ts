/**
 * The document the Project view opens on when the address names none: the project's memory first (what an agent
 * reads at the start of a session), then the plan and the summary, else the first file listed. Null when the
 * project has no `.agent` files yet (the view then says to pick one).
 */
const preferred = [
  '.agent/PROJECT_MEMORY.md',
  '.agent/MEMORY.md',
  '.agent/plan/PLAN.md',
  '.agent/SESSION_SUMMARY.md',
] as const;

export function defaultDocument(
  files: readonly { readonly path: string; readonly kind?: string }[],
): string | null {
  for (const path of preferred) if (files.some((f) => f.path === path)) return path;
  return files.find((f) => f.kind !== 'skill')?.path ?? files[0]?.path ?? null;
}
