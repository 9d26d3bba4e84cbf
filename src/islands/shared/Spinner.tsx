/** A centred spinner with a text for screen readers and sighted users alike. */
export function Spinner({ label, fullscreen = false }: { label: string; fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? 'spinner-screen' : 'spinner-inline'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="spinner-label">{label}</span>
    </div>
  );
}
