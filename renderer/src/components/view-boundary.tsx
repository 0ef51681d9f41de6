/**
 * An error boundary around one view (a workspace, the profile): a view that throws while rendering shows
 * what happened and a "Reload view" button in its own place, and the rest of the app keeps working.
 * React catches render errors only in class components, hence the one class in the app.
 */
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';

type Props = {
  /** What the view is called to the user: "Generators workspace", "Generator profile". */
  name: string;
  /** A hidden view's failure stays hidden too, like the view would. */
  hidden?: boolean;
  children: ReactNode;
};

type State = { error: Error | null; generation: number };

export class ViewBoundary extends Component<Props, State> {
  override state: State = { error: null, generation: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The console is where a support person looks; the user sees the message below.
    console.error(`The ${this.props.name} stopped working:`, error, info.componentStack);
  }

  private readonly reload = () => {
    // Its state is rebuilt from the stores, as after a restart.
    this.setState((state) => ({ error: null, generation: state.generation + 1 }));
  };

  override render(): ReactNode {
    const { error, generation } = this.state;
    // A new key mounts the view afresh after "Reload view".
    if (error === null) return <Fragment key={generation}>{this.props.children}</Fragment>;
    return (
      <div className="view-failed" hidden={this.props.hidden}>
        <div role="alert" className="error-banner">
          <p>
            The {this.props.name} stopped working: {error.message}
          </p>
          <p>The rest of the app still works. Reloading the view keeps your filters and sort.</p>
        </div>
        <button type="button" className="primary" onClick={this.reload}>
          Reload view
        </button>
      </div>
    );
  }
}
