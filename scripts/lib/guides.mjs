// The guides of docs/ rendered to HTML (micromark with GitHub's tables; headings get GitHub's
// anchors, so `docs/webhooks.md#test-deliveries-ping` becomes `/docs/guides/webhooks#test-deliveries-ping`).
// One function, used by `npm run guides:build` to write the generated module and by its test to
// check that the committed module is current.
import GithubSlugger from "github-slugger";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/** The guides the reference serves, in its sidebar's order: slug (= file name in docs/) and title. */
export const GUIDES = [
  { slug: "leads", title: "Partner leads" },
  { slug: "application-link", title: "The application link and the consent receipt" },
  { slug: "documents", title: "Documents and bank statements" },
  { slug: "webhooks", title: "Webhooks" },
  { slug: "lender-api", title: "Lender API and routing" },
  { slug: "matcher", title: "Funding panel, matching and requirements" },
  { slug: "commission", title: "Introducer commission" },
  { slug: "registers", title: "Company registers and VAT" },
  { slug: "portal", title: "The portal" },
  { slug: "embed", title: "Prequalification on your website" },
  { slug: "deploy", title: "Deploying" },
  { slug: "operations", title: "Operations" },
];

const SLUGS = new Set(GUIDES.map((g) => g.slug));
const decode = (text) => text.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");
const plain = (html) => decode(html.replace(/<[^>]+>/g, ""));

/** A link's target as a guide page, when it points at a guide (`webhooks.md`, `docs/webhooks.md#x`, `../docs/…`). */
function guideHref(href) {
  const m = /^(?:\.\.\/)?(?:docs\/)?([a-z-]+)\.md(#[\w-]+)?$/.exec(href);
  return m && SLUGS.has(m[1]) ? `/docs/guides/${m[1]}${m[2] ?? ""}` : null;
}

/** An image path relative to docs/ that the guides may show (`portal/x.png`), or null. */
export function guideImage(src) {
  const m = /^(?:\.\/)?(?:docs\/)?([a-z0-9-]+\/[a-z0-9-]+\.png)$/.exec(src);
  return m ? m[1] : null;
}

/** The images (relative to docs/) the guides show, sorted, each once. */
export function guideImages(read) {
  const found = new Set();
  for (const { slug } of GUIDES) {
    for (const [, src] of renderGuide(read(`docs/${slug}.md`)).matchAll(/<img src="\/docs\/guides\/([^"]+)"/g)) found.add(src);
  }
  return [...found].sort();
}

/**
 * Each guide's HTML by its Markdown: rendering is the costly part (micromark with GFM, about 1.5 s of
 * CPU for all the guides), and one `npm run guides:build` or `--check` asked for every guide three
 * times (the module's entries, the images it lists, the images the script links). The output depends
 * on the Markdown alone, so a text already rendered is answered from here.
 */
const rendered = new Map();

/** One guide's Markdown as HTML: anchored headings, guide links to guide pages, other repository links as plain text. */
export function renderGuide(markdown) {
  let html = rendered.get(markdown);
  if (html === undefined) {
    html = renderUncached(markdown);
    rendered.set(markdown, html);
  }
  return html;
}

function renderUncached(markdown) {
  const slugger = new GithubSlugger();
  // HTML comments are notes to the guide's editors (e.g. the generated-block markers of docs/deploy.md).
  let html = micromark(markdown.replace(/<!--[\s\S]*?-->\n?/g, ""), { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  html = html.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_, level, inner) => {
    const id = slugger.slug(plain(inner));
    return `<h${level} id="${id}"><a class="anchor" href="#${id}">#</a>${inner}</h${level}>`;
  });
  html = html.replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (whole, href, text) => {
    if (/^(https?:|mailto:|#|\/)/.test(href)) return whole;
    const guide = guideHref(decode(href));
    // A file of the repository (source, README, a document that is not a guide) has no page here.
    return guide ? `<a href="${guide}">${text}</a>` : `<span class="repo-path" title="${href}">${text}</span>`;
  });
  // An image of docs/ (`portal/lender-sandbox.png`) is a static asset of the Worker under
  // /docs/guides/… (`assets/guides/…`, a link to the file in docs/ made by `npm run guides:build`).
  html = html.replace(/<img src="([^"]*)"/g, (whole, src) => {
    const image = guideImage(decode(src));
    return image ? `<img src="/docs/guides/${image}"` : whole;
  });
  // `docs/webhooks.md` written as code in the text links to its page too.
  html = html.replace(/<code>((?:\.\.\/)?docs\/([a-z-]+)\.md(#[\w-]+)?)<\/code>/g, (whole, _path, slug, anchor) =>
    SLUGS.has(slug) ? `<a href="/docs/guides/${slug}${anchor ?? ""}">${whole}</a>` : whole,
  );
  return html;
}

/** The TypeScript source of src/api/reference/guides.generated.ts. */
export function guidesSource(read) {
  const entries = GUIDES.map(({ slug, title }) => ({ slug, title, file: `docs/${slug}.md`, html: renderGuide(read(`docs/${slug}.md`)) }));
  return `// Generated by \`npm run guides:build\` (scripts/build-guides.mjs) from docs/*.md. Do not edit.
export interface Guide {
  slug: string;
  title: string;
  file: string;
  html: string;
}

export const GUIDES: readonly Guide[] = ${JSON.stringify(entries, null, 2)};

/** The images the guides show, relative to docs/ and to /docs/guides/ (static assets under assets/guides/). */
export const GUIDE_IMAGES: readonly string[] = ${JSON.stringify(guideImages(read), null, 2)};
`;
}
