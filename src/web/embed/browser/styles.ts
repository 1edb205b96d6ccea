// The widget's only CSS, applied inside its shadow root (a constructed stylesheet, so a host page's
// strict CSP needs no 'unsafe-inline'). Everything a partner may theme is a custom property; the
// parts (`::part(form)`, `field`, `label`, `input`, `button`, `answer`, `error`) are the other hooks.
export const CSS = `
:host{all:initial;display:block;box-sizing:border-box;max-width:100%;
--rfs-color-primary:#1d4ed8;--rfs-color-on-primary:#fff;--rfs-color-text:#1f2937;--rfs-color-muted:#4b5563;
--rfs-color-background:#fff;--rfs-color-surface:#f3f4f6;--rfs-color-border:#6b7280;--rfs-color-error:#b91c1c;
--rfs-color-success:#166534;--rfs-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--rfs-radius:8px;--rfs-space:16px}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){--rfs-color-primary:#93c5fd;--rfs-color-on-primary:#0b1220;
--rfs-color-text:#f3f4f6;--rfs-color-muted:#d1d5db;--rfs-color-background:#111827;--rfs-color-surface:#1f2937;
--rfs-color-border:#9ca3af;--rfs-color-error:#fca5a5;--rfs-color-success:#86efac}}
:host([theme=dark]){--rfs-color-primary:#93c5fd;--rfs-color-on-primary:#0b1220;--rfs-color-text:#f3f4f6;--rfs-color-muted:#d1d5db;
--rfs-color-background:#111827;--rfs-color-surface:#1f2937;--rfs-color-border:#9ca3af;--rfs-color-error:#fca5a5;--rfs-color-success:#86efac}
.rfs{font-family:var(--rfs-font);font-size:16px;line-height:1.5;color:var(--rfs-color-text);background:var(--rfs-color-background);
padding:var(--rfs-space);border-radius:var(--rfs-radius);text-align:start;letter-spacing:normal;word-wrap:break-word}
:host([inherit-font]) .rfs{font-family:inherit}
:host([inherit-font]){font-family:inherit}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
h2,h3{margin:0 0 calc(var(--rfs-space)/2);line-height:1.25;font-size:1.25em}
h3{font-size:1.05em;margin-top:var(--rfs-space)}
p{margin:0 0 calc(var(--rfs-space)/2)}
form{display:grid;gap:var(--rfs-space);grid-template-columns:repeat(auto-fit,minmax(min(100%,14em),1fr))}
.field{display:flex;flex-direction:column;gap:4px;min-width:0}
label{font-weight:600}
.hint{font-weight:400;color:var(--rfs-color-muted);font-size:.875em}
input,select,button,a.cta{font:inherit;min-height:44px;border-radius:var(--rfs-radius)}
input,select{width:100%;padding:8px 10px;color:var(--rfs-color-text);background:var(--rfs-color-background);border:1px solid var(--rfs-color-border)}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid var(--rfs-color-error)}
.err{color:var(--rfs-color-error);font-size:.925em;min-height:0}
.err:empty{display:none}
button,a.cta{display:inline-flex;align-items:center;justify-content:center;padding:8px 20px;border:0;cursor:pointer;
background:var(--rfs-color-primary);color:var(--rfs-color-on-primary);font-weight:600;text-decoration:none;min-width:44px}
button[disabled]{opacity:.6;cursor:progress}
.actions{grid-column:1/-1;display:flex;gap:var(--rfs-space);flex-wrap:wrap;align-items:center}
:focus-visible{outline:3px solid var(--rfs-color-primary);outline-offset:2px}
.alert{grid-column:1/-1;border:2px solid var(--rfs-color-error);border-radius:var(--rfs-radius);padding:calc(var(--rfs-space)/2)}
.alert:empty{display:none}
.answer{margin-top:var(--rfs-space);padding:var(--rfs-space);border-radius:var(--rfs-radius);background:var(--rfs-color-surface)}
.answer:empty{display:none}
.answer h2:focus{outline:none}
ul{margin:0 0 calc(var(--rfs-space)/2);padding-inline-start:1.25em}
.yes{color:var(--rfs-color-success)}
.small{font-size:.875em;color:var(--rfs-color-muted)}
`;
