/**
 * A picker whose choice is an explicit act (issue 25): a button opens a list of options, and only a click,
 * Enter or Space on an option chooses it. Arrow keys only move between the options; Escape and Tab close the
 * list. A native select acts on every arrow key, which switched the tenancy or the whole interface.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import './choice-menu.css';

/** One option: its value, its text and, for a language, the language the text is in. */
type Choice = { value: string; text: string; lang?: string };

type Props = {
  /** What is chosen (the button's accessible name starts with it). */
  label: string;
  choices: Choice[];
  current: string;
  onChoose: (value: string) => void;
  className?: string;
};

/** The picker. */
export function ChoiceMenu({ label, choices, current, onChoose, className }: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const chosen = choices.find((c) => c.value === current);

  useEffect(() => {
    if (!open) return;
    // Focus goes to the chosen option; a click outside closes the list.
    const options = root.current?.querySelectorAll<HTMLElement>('.choice-option') ?? [];
    ([...options].find((o) => o.getAttribute('aria-current') === 'true') ?? options[0])?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const options = [...(root.current?.querySelectorAll<HTMLElement>('.choice-option') ?? [])];
    const at = options.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      options[(to + options.length) % options.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(options.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') setOpen(false);
  };

  return (
    <div className={`choice-menu ${className ?? ''}`} ref={root}>
      <button
        ref={button}
        type="button"
        className="choice-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((x) => !x)}
      >
        <span className="visually-hidden">{label}: </span>
        <span lang={chosen?.lang}>{chosen?.text ?? current}</span>
      </button>
      {open && (
        <ul id={id} className="choice-list" aria-label={label} onKeyDown={onKeyDown}>
          {choices.map((c) => (
            <li key={c.value}>
              <button
                type="button"
                className="choice-option"
                lang={c.lang}
                aria-current={c.value === current ? 'true' : undefined}
                onClick={() => {
                  close();
                  if (c.value !== current) onChoose(c.value);
                }}
              >
                {c.text}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
