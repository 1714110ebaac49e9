// The pieces of the docs' guides: a numbered section with an anchor, and inline code.
import { Card } from "./ui";

export const c = (text: string) => <code className="code-inline">{text}</code>;

/** Names as inline code, separated by commas. */
export const codes = (texts: readonly string[]) =>
  texts.map((text, i) => (
    <span key={text}>
      {i > 0 && ", "}
      {c(text)}
    </span>
  ));

export function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card id={id} title={title} className="scroll-mt-4">
      <div className="space-y-3 text-sm leading-relaxed text-slate-800">{children}</div>
    </Card>
  );
}
