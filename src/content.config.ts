/**
 * Content collections: help, data policy, cookie policy and the report's advice texts, one Markdown file per language
 * (src/content/<collection>/<lang>.md). An editor changes a text by editing that one file.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const page = z.object({
  /** The page title, shown as the heading and in the browser tab. */
  title: z.string().min(1),
  /** One sentence for search engines and link previews. */
  description: z.string().min(1),
  /** The language of the text; must match the file name. */
  lang: z.enum(['en', 'da', 'nb']),
  /** The date of the last change that matters to readers (YYYY-MM-DD). */
  updated: z.coerce.date(),
});

const markdownIn = (folder: string) => glob({ pattern: '*.md', base: `./src/content/${folder}` });

export const collections = {
  help: defineCollection({ loader: markdownIn('help'), schema: page }),
  dataPolicy: defineCollection({ loader: markdownIn('data-policy'), schema: page }),
  cookiePolicy: defineCollection({ loader: markdownIn('cookie-policy'), schema: page }),
  /** The monthly report's energy advice and complaint texts, set per deployment. */
  reportTexts: defineCollection({ loader: markdownIn('report-texts'), schema: page }),
};
