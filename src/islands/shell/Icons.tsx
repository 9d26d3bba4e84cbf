/** The few line icons of the shell, drawn inline so they cost no requests. */
const paths = {
  consumption: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  statements: 'M7 3h8l4 4v14H7zM15 3v4h4M10 12h6M10 16h6',
  reports: 'M4 20V4h16v16zM8 16v-3M12 16V8M16 16v-5',
  alarms: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0',
  tenancy: 'M3 11l9-7 9 7v9H3zM9 20v-6h6v6',
  notifications: 'M4 5h16v11H8l-4 4z',
  help: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14M12 17.5v.01',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  menu: 'M3 6h18M3 12h18M3 18h18',
  close: 'M6 6l12 12M18 6L6 18',
  back: 'M15 5l-7 7 7 7',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  check: 'M5 12.5l4.5 4.5L19 7',
} as const;

export type IconName = keyof typeof paths;

/** A 24×24 stroke icon; decorative, so hidden from assistive technology. */
export function Icon({ name }: { name: IconName }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d={paths[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
