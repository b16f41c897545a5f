// @ts-check

/**
 * Presentation mode, for a projector: the Present button, or `present=1` in the address (kept there, so a presenter
 * opens the page presenting). The developer's controls (the project picker, whether the control API asks for an
 * admin token, the demo bar) fold into a drawer in the header, which opens over the page rather than pushing it
 * down; the header and the tabs keep one line each, so a view's own content starts near the top of the screen.
 * @param {(on: boolean) => void} changed told after each switch
 */
export function presentationMode(changed) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const button = $("present");
  const drawer = /** @type {HTMLDetailsElement} */ ($("drawer"));
  const body = $("drawer-body");
  const dev = $("dev-controls");
  const bar = $("demo-bar");
  const title = /** @type {HTMLElement} */ (document.querySelector("header.top h1"));
  const tabs = /** @type {HTMLElement} */ (document.querySelector("nav.views"));

  function set(/** @type {boolean} */ on) {
    document.documentElement.classList.toggle("present", on);
    button.setAttribute("aria-pressed", String(on));
    drawer.hidden = !on;
    if (on) body.append(dev, bar);
    else {
      drawer.open = false;
      title.after(dev);
      tabs.after(bar);
    }
    const url = new URL(location.href);
    if (on) url.searchParams.set("present", "1");
    else url.searchParams.delete("present");
    history.replaceState(null, "", url);
    changed(on);
  }
  button.addEventListener("click", () => set(!document.documentElement.classList.contains("present")));
  drawer.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && drawer.open) {
      drawer.open = false;
      drawer.querySelector("summary")?.focus();
    }
  });
  const wanted = new URLSearchParams(location.search).get("present");
  set(wanted !== null && wanted !== "0");
}
