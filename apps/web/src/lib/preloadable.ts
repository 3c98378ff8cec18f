import { type ComponentType, createElement, lazy } from 'react'

/** A component whose code loads on demand (a route's page, a heavy piece), and can be loaded ahead. */
export type Preloadable<P extends object, M = unknown> = {
  /** The component, once its code is in. */
  loaded: ComponentType<P> | undefined
  Lazy: ComponentType<P>
  /** Loads the code (again after a failure); the component renders at once afterwards. */
  load: () => Promise<M>
}

/** `React.lazy`, plus a way to load the code ahead so that the first render does not suspend. */
export function preloadable<M, P extends object>(
  importer: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): Preloadable<P, M> {
  const load = () =>
    importer().then((module) => {
      code.loaded = pick(module)
      return module
    })
  const code: Preloadable<P, M> = {
    loaded: undefined,
    Lazy: lazy(() => load().then((module) => ({ default: pick(module) }))),
    load,
  }
  return code
}

/**
 * Renders a preloadable component: directly once its code is in, else through `React.lazy`, which
 * suspends on its first render whatever the state of the import. Right after a load ahead (a page opened
 * directly, whose heading the server's shell shows), that suspension would commit a fallback for a moment.
 */
export function Preloaded<P extends object>({ code, props }: { code: Preloadable<P>; props: P }) {
  return createElement(code.loaded ?? code.Lazy, props)
}
