// A very small DOM helper: h('button', { onclick, class }, 'text'), and a render that keeps
// keyboard focus on the element with the same data-key across re-renders.

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, unknown>;

export function h(tag: string, attrs: Attrs | null = null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') el.className = String(v);
    else if (k === 'value' && (el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) el.value = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  if (el instanceof HTMLSelectElement && attrs && 'value' in attrs) el.value = String(attrs.value);
  return el;
}

function append(el: HTMLElement, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

/** Replaces root's content; focus moves back to the element with the same data-key, if any. */
export function render(root: HTMLElement, ...content: Child[]): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && root.contains(active) ? active.dataset.key : undefined;
  const scrolls = [...root.querySelectorAll<HTMLElement>('[data-scroll]')].map((e) => [e.dataset.scroll, e.scrollTop] as const);
  root.replaceChildren();
  append(root, content);
  for (const [k, top] of scrolls) {
    const e = root.querySelector<HTMLElement>(`[data-scroll="${k}"]`);
    if (e) e.scrollTop = top;
  }
  if (key) {
    const next = root.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    if (next && !(next as HTMLButtonElement).disabled) next.focus();
  }
}
