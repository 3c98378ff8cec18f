// What every measured page runs before its own scripts: the probe that marks, in ms since navigation start,
// first paint, "Connect Wallet" visible and ready, the connect dialog and its wallet list, and long tasks.
/**
 * Where a page's wallet UI is, so the same probe times every page. "Connect Wallet" as a person sees it is
 * found by its label (a button whose text is exactly that), whoever renders it: RainbowKit's ConnectButton,
 * a hand-made button, or a stand-in shown while the wallet kit loads. `connectButton` is the page's real
 * button, the one whose press opens the connect modal at once (a press on Guildhall's stand-in waits for
 * the kit to arrive and mount).
 */
export type Selectors = { connectButton: string; accountButton: string; walletOption: string }

/** RainbowKit's buttons and connect modal (Guildhall and the bare RainbowKit page). */
export const RAINBOWKIT_SELECTORS: Selectors = {
  connectButton: '[data-testid="rk-connect-button"]',
  accountButton: '[data-testid="rk-account-button"]',
  walletOption: '[data-testid^="rk-wallet-option-"]',
}

export const CONNECT_LABEL = 'Connect Wallet'

/** What the probe records in the page, in ms since navigation start (performance.now()). */
export type Marks = {
  fcp: number | null
  connectVisible: number | null
  connectReady: number | null
  accountReady: number | null
  clickAt: number | null
  modalOpen: number | null
  walletList: number | null
  /** [startTime, duration] of every long task (≥ 50 ms on the main thread). */
  longTasks: Array<[number, number]>
}

export type MarkName = Exclude<keyof Marks, 'longTasks'>

// Runs before any page script. A string, not a function, so no bundler helper leaks into the page.
// "Shown" = rendered and visible (not display:none or visibility:hidden: the server's shell holds the
// button's place with an invisible copy), not inside an aria-hidden wrapper, and fully opaque (RainbowKit
// renders its button hidden, at opacity 0, until it has mounted; Guildhall hides its stand-in while
// sign-in status loads). "Visible" = any "Connect Wallet" button shown; "ready" = the page's real connect
// button shown. "Modal open" = a dialog titled "Connect a Wallet" has a box; "wallet list" = every wallet
// option in it has a box and its icons have loaded (RainbowKit loads each icon as its own chunk).
// Conditions are checked on every DOM mutation, image load and end of transition/animation, and on every
// frame between the click and the wallet list.
export const probe = (selectors: Selectors) => `(() => {
  const selectors = ${JSON.stringify(selectors)};
  const marks = (window.__bench = { fcp: null, connectVisible: null, connectReady: null, accountReady: null, clickAt: null, modalOpen: null, walletList: null, longTasks: [] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') marks.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const shownElement = (element) => {
    if (!element || element.closest('[aria-hidden="true"], dialog:not([open])')) return false;
    if (!element.checkVisibility({ visibilityProperty: true })) return false;
    if (element.getBoundingClientRect().width === 0) return false;
    for (let node = element; node; node = node.parentElement) if (getComputedStyle(node).opacity !== '1') return false;
    return true;
  };
  const shown = (selector) => shownElement(document.querySelector(selector));
  const connectShown = () => [...document.querySelectorAll('button')].find(
    (button) => button.textContent.trim() === ${JSON.stringify(CONNECT_LABEL)} && shownElement(button),
  );
  // Where a finger would land on the first "Connect Wallet" shown, if any (for a tap at first sight).
  window.__benchConnectAt = () => {
    const box = connectShown()?.getBoundingClientRect();
    return box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null;
  };
  const connectDialog = () => [...document.querySelectorAll('[role="dialog"], dialog[open]')].find(
    (dialog) => dialog.textContent.includes('Connect a Wallet') && dialog.getBoundingClientRect().width > 0,
  );
  const walletListShown = (dialog) => {
    const options = [...dialog.querySelectorAll(selectors.walletOption)];
    return options.length > 0 && options.every((option) => option.getBoundingClientRect().width > 0 &&
      [...option.querySelectorAll('img')].every((img) => img.getAttribute('src') && img.complete && img.naturalWidth > 0));
  };
  const check = () => {
    const now = performance.now();
    if (marks.connectVisible === null && connectShown()) marks.connectVisible = now;
    if (marks.connectReady === null && shown(selectors.connectButton)) marks.connectReady = now;
    if (marks.accountReady === null && shown(selectors.accountButton)) marks.accountReady = now;
    if (marks.clickAt === null || marks.walletList !== null) return;
    const dialog = connectDialog();
    if (!dialog) return;
    if (marks.modalOpen === null) marks.modalOpen = now;
    if (walletListShown(dialog)) marks.walletList = now;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  for (const type of ['transitionend', 'animationend', 'load']) document.addEventListener(type, check, true);
  const everyFrame = () => { check(); if (marks.walletList === null) requestAnimationFrame(everyFrame); };
  document.addEventListener('click', () => {
    if (marks.clickAt !== null) return;
    marks.clickAt = performance.now();
    requestAnimationFrame(everyFrame);
  }, true);
})();`
