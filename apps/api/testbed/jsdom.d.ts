// jsdom (already the web tests' environment) ships no types of its own; the feeds test uses only its XML and
// HTML parsers, typed here by the DOM's own types rather than by another package.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string)
    readonly window: Window & typeof globalThis
  }
}
