import { Component, type ReactNode } from 'react';

/**
 * Shows `fallback` instead of its children when rendering them throws, so that one part of a page
 * that cannot be shown (a project's content, say) never leaves the whole page blank.
 */
export class ErrorBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
