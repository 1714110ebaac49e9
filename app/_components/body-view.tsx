import { CopyButton } from "./copy-button";
import { prettyJson } from "./ui";

/** A body as sent: shown indented when it is JSON, copied as its exact text. */
export function BodyView({ text, testId, tall = false }: { text: string; testId: string; tall?: boolean }) {
  return (
    <div className="flex items-start gap-2">
      <pre
        data-testid={testId}
        className={`${tall ? "max-h-96" : "max-h-64"} min-w-0 flex-1 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800 ring-1 ring-slate-200`}
      >
        {prettyJson(text)}
      </pre>
      <CopyButton value={text} label="Copy body" />
    </div>
  );
}
