/** A labelled (`mono`: the label is a name from code, an event or a command), keyboard-scrollable block of code (no client script: the page is static). */
export function CodeBlock({ label, code, mono }: { label: string; code: string; mono?: boolean }) {
  return (
    <figure className="min-w-0">
      <figcaption className={`mb-1 text-xs font-semibold tracking-wide text-slate-600 ${mono ? 'font-mono' : 'uppercase'}`}>{label}</figcaption>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the focusable block for screen readers, as the figcaption does on screen */}
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be focusable so keyboard users can scroll it (axe: scrollable-region-focusable)
        tabIndex={0}
        aria-label={label}
        className="max-w-full overflow-x-auto rounded-lg bg-slate-900 p-3 text-[13px] leading-relaxed text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
