/** What a key press needs to be read as a shortcut: its key, modifiers and where it was typed. */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly defaultPrevented: boolean;
  readonly target: EventTarget | null;
}

interface EditableLike {
  readonly tagName?: string;
  readonly isContentEditable?: boolean;
  readonly type?: string;
}

const typingTags = new Set(['TEXTAREA', 'SELECT']);
// Inputs whose keys are not text (a `/` there is not typed into anything).
const nonTextInputs = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color']);

/** True where a `/` is text being typed: a text field, a text area, a select or an editable element. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const element = target as EditableLike | null;
  if (!element || typeof element.tagName !== 'string') return false;
  if (element.isContentEditable) return true;
  if (typingTags.has(element.tagName)) return true;
  return element.tagName === 'INPUT' && !nonTextInputs.has(String(element.type ?? 'text').toLowerCase());
}

/** `/` with no modifier, not typed into a field and not taken by something else: "go to search". */
export function isSearchShortcut(event: KeyPress): boolean {
  return (
    event.key === '/' &&
    !event.ctrlKey &&
    !event.metaKey &&
    !event.altKey &&
    !event.defaultPrevented &&
    !isTypingTarget(event.target)
  );
}
