/** An empty state with its illustration (SPEC §2: no alarms, no notifications). */
import type { ReactNode } from 'react';

/** The illustration, a title and a line of text, and an optional action. */
export function EmptyState(props: { image: string; title: string; text: string; children?: ReactNode }) {
  return (
    <div className="state-box empty alarm-empty">
      <img className="empty-illustration" src={props.image} alt="" width="160" height="120" />
      <h2>{props.title}</h2>
      <p>{props.text}</p>
      {props.children}
    </div>
  );
}
