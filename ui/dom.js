// @ts-check
/**
 * Builds elements from data without innerHTML, so nothing a request carried (a customer's name, a path) can
 * become markup on the page.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown> | null} [attrs] properties (`className`, `onclick`) or, with a dash or `aria`/
 *   `data`/`for`/`role` names, attributes
 * @param {...(Node | string | number | null | undefined | false | (Node | string | null | undefined | false)[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  /** @type {Record<string, unknown>} */
  const properties = Object(element);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.includes("-") || name === "role" || name === "for" || name === "scope")
      element.setAttribute(name, String(value));
    else properties[name] = value;
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "number" ? String(child) : child);
  }
  return element;
}

/**
 * Replaces what an element shows, unless it shows that already: a panel fetched again under load often gets the
 * same answer, and leaving the page as it is spares the browser a layout (and keeps focus and selection).
 * @param {Element} element
 * @param {...(Node | string | null | undefined | false)} children
 */
export function show(element, ...children) {
  const next = /** @type {(Node | string)[]} */ (
    children.filter((child) => child !== null && child !== undefined && child !== false)
  );
  if (!showsAlready(element, next)) element.replaceChildren(...next);
}

/**
 * Whether `element`'s children are `next` already: the same nodes, or equal ones (same tags, attributes and text).
 * @param {Element} element
 * @param {(Node | string)[]} next
 */
function showsAlready(element, next) {
  const now = element.childNodes;
  if (now.length !== next.length) return false;
  return next.every((child, i) => {
    const shown = now[i];
    return typeof child === "string"
      ? shown.nodeType === Node.TEXT_NODE && shown.textContent === child
      : shown === child || shown.isEqualNode(child);
  });
}

/**
 * A panel's frame: its heading (the section's label), a line for errors, and a body.
 * @param {HTMLElement} section
 * @param {string} title
 * @param {HTMLElement[]} [tools]
 */
export function frame(section, title, tools = []) {
  const error = h("p", { className: "error", role: "alert" });
  const body = h("div", { className: "body" });
  section.replaceChildren(
    h("div", { className: "panel-head" }, h("h2", { id: `${section.id}-title` }, title), ...tools),
    error,
    body,
  );
  return { error, body };
}

/**
 * @param {string | null | undefined} iso
 */
export function shortTime(iso) {
  if (!iso) return "";
  return iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
}

/**
 * A form's submit handler: the page stays where it is, the handler runs.
 * @param {() => unknown} handler
 */
export function submitted(handler) {
  return (/** @type {Event} */ event) => {
    event.preventDefault();
    handler();
  };
}
