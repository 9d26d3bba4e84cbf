/**
 * Component tests (Testing Library on happy-dom): the page's language is set before any island module loads, as
 * the server-rendered <html lang> is in the browser (src/client/i18n.ts reads it once, at import).
 */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

document.documentElement.lang = 'en';
afterEach(() => cleanup());
