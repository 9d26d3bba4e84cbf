/** After a refused submit, focus goes to the first field marked invalid, whose error is tied to it. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  // After React has rendered the marks.
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
