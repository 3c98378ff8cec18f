import { Component, type ReactNode } from 'react'

type Props = { children: ReactNode; resetKey: string }
type State = { failed: boolean; resetKey: string }

/**
 * A page that fails to render or to load its code (typically a chunk gone after a new release was
 * deployed) says so in words, and the header stays usable; navigating elsewhere clears it.
 */
export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey }

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey }
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <article className="page">
        <h1>This page could not be shown</h1>
        <p role="alert" className="error">
          Something went wrong while loading it. Reload the page to try again; if a new version of Guildhall
          was just installed, reloading fetches it.
        </p>
      </article>
    )
  }
}
