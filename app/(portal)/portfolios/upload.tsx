"use client";

// Drop a CSV or XLSX file, see what will be read (the header, the reference column found, the first
// rows, the row count) and only then submit it as a batch. When no column has an accepted name, the
// partner picks the reference (and external id) column from the likely header, and the submission
// names them as the API's reference_column and external_id_column do.
import { useId, useRef, useState, useTransition } from "react";
import { Field } from "../../_components/field";
import { FormError } from "../../_components/ui";
import { previewPortfolioAction, submitPortfolioAction, type PreviewResult } from "./actions";
import { countOf } from "@/lib/portal/format";

type Previewed = Extract<PreviewResult, { preview: unknown }>;

export function PortfolioUpload({ mode, maxRows, maxMiB }: { mode: "test" | "live"; maxRows: number; maxMiB: number }) {
  const [file, setFile] = useState<File | null>(null);
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // Picked columns (indexes into the header) when the preview recognised none.
  const [pickedReference, setPickedReference] = useState<number | null>(null);
  const [pickedExternalId, setPickedExternalId] = useState<number | null>(null);
  const [pending, start] = useTransition();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    setPreviewed(null);
    setError(null);
    setPickedReference(null);
    setPickedExternalId(null);
    start(async () => {
      const form = new FormData();
      form.set("file", chosen);
      const result = await previewPortfolioAction(form);
      if ("error" in result) setError(result.error);
      else setPreviewed(result);
    });
  };

  const submit = (form: FormData) => {
    if (!file) return;
    form.set("file", file);
    if (picking && referenceColumn !== null) {
      form.set("reference_column", preview.header[referenceColumn]!);
      if (externalIdColumn !== null) form.set("external_id_column", preview.header[externalIdColumn]!);
    }
    start(async () => {
      const result = await submitPortfolioAction(form);
      if (result?.error) setError(result.error);
    });
  };

  const preview = previewed?.preview;
  const picking = preview?.referenceColumn === null;
  const referenceColumn = picking ? pickedReference : (preview?.referenceColumn ?? null);
  const externalIdColumn = picking ? pickedExternalId : (preview?.externalIdColumn ?? null);
  // The columns that can be named: those with a name, each name once (the server takes the first).
  const nameable = (preview?.header ?? [])
    .map((name, i) => ({ name, i }))
    .filter(({ name }, at, all) => name.trim() && all.findIndex((o) => o.name.trim() === name.trim()) === at);
  const pickerId = useId();
  return (
    <div className="space-y-4">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the file input inside is the accessible way in. */}
      <div
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          choose(e.dataTransfer.files[0]);
        }}
        className={`rounded-xl border-2 border-dashed px-4 py-8 text-center ${dragging ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50"}`}
      >
        <p className="text-sm text-slate-800">Drop a CSV or XLSX file here, or</p>
        <label htmlFor="portfolio-file" className="btn-secondary mt-2 inline-flex cursor-pointer">
          Choose a file
        </label>
        <input
          ref={input}
          id="portfolio-file"
          name="file"
          type="file"
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="sr-only"
          aria-describedby={hintId}
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <p id={hintId} className="mt-2 text-xs text-slate-600">
          A header row naming a column <span className="font-mono">cadastral_reference</span> (or{" "}
          <span className="font-mono">referencia_catastral</span>, <span className="font-mono">refcat</span>) and
          optionally <span className="font-mono">external_id</span>, among the first 20 rows (titles above it are
          skipped); named otherwise, you pick the columns. Up to {maxRows.toLocaleString("en")} rows and {maxMiB} MiB.
          CSV in UTF-8, comma or semicolon.
        </p>
      </div>
      {pending && !preview && (
        <p className="text-sm text-slate-700" aria-live="polite">
          Reading {file?.name}…
        </p>
      )}
      <FormError message={error} />
      {preview && (
        <form action={submit} className="space-y-3" aria-label="Confirm the portfolio">
          {picking ? (
            <fieldset className="space-y-3" data-testid="column-picker">
              <legend className="text-sm text-slate-800">
                <span className="font-medium">{previewed.fileName}</span>: {countOf(preview.total, "row")} under the
                header on row {preview.headerLine}, but no column is named{" "}
                <span className="font-mono">cadastral_reference</span>,{" "}
                <span className="font-mono">referencia_catastral</span> or <span className="font-mono">refcat</span>.
                Pick the column that holds the references.
              </legend>
              <div className="grid gap-3 sm:grid-cols-2">
                <div>
                  <label htmlFor={`${pickerId}-reference`} className="label">
                    Reference column
                  </label>
                  <select
                    id={`${pickerId}-reference`}
                    className="input"
                    required
                    value={pickedReference ?? ""}
                    onChange={(e) => setPickedReference(e.target.value === "" ? null : Number(e.target.value))}
                  >
                    <option value="">Choose a column…</option>
                    {nameable.map(({ name, i }) => (
                      <option key={i} value={i}>
                        {name}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor={`${pickerId}-external`} className="label">
                    Your id column <span className="font-normal text-slate-500">(optional)</span>
                  </label>
                  <select
                    id={`${pickerId}-external`}
                    className="input"
                    value={pickedExternalId ?? ""}
                    onChange={(e) => setPickedExternalId(e.target.value === "" ? null : Number(e.target.value))}
                  >
                    <option value="">None</option>
                    {nameable
                      .filter(({ i }) => i !== pickedReference)
                      .map(({ name, i }) => (
                        <option key={i} value={i}>
                          {name}
                        </option>
                      ))}
                  </select>
                </div>
              </div>
            </fieldset>
          ) : (
            <p className="text-sm text-slate-800" data-testid="preview-summary">
              <span className="font-medium">{previewed.fileName}</span>: {countOf(preview.total, "row")}; references
              read from column <span className="font-mono font-medium">{preview.header[referenceColumn ?? 0]}</span>
              {externalIdColumn !== null && (
                <>
                  , your ids from <span className="font-mono font-medium">{preview.header[externalIdColumn]}</span>
                </>
              )}
              {preview.headerLine > 1 && <> (the header is row {preview.headerLine}; the rows above it are skipped)</>}.
            </p>
          )}
          <div
            data-scrolls
            className="overflow-x-auto rounded-lg border border-slate-200"
            role="region"
            aria-label="First rows of the file"
            tabIndex={0}
          >
            <table className="table">
              <caption className="sr-only">The first {preview.rows.length} rows as they will be read</caption>
              <thead>
                <tr>
                  {preview.header.map((name, i) => (
                    <th
                      key={i}
                      scope="col"
                      className={i === referenceColumn ? "bg-brand-50 text-brand-900" : undefined}
                    >
                      {name || <span className="text-slate-500">(no name)</span>}
                      {i === referenceColumn && <span className="ml-1 text-xs font-normal">(reference)</span>}
                      {i === externalIdColumn && <span className="ml-1 text-xs font-normal">(your id)</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row, r) => (
                  <tr key={r}>
                    {preview.header.map((_, i) => (
                      <td key={i} className={i === referenceColumn ? "font-mono" : undefined}>
                        {row[i] ?? ""}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
            <Field
              id="portfolio-name"
              name="name"
              label="Name"
              optional
              maxLength={200}
              defaultValue={previewed.fileName.replace(/\.[^.]+$/, "")}
            />
            <div className="flex gap-2">
              <button type="button" className="btn-secondary" onClick={() => input.current?.click()} disabled={pending}>
                Another file
              </button>
              <button type="submit" className="btn" disabled={pending || !preview.total || referenceColumn === null}>
                {pending ? "Submitting…" : `Register ${preview.total.toLocaleString("en")} in ${mode} mode`}
              </button>
            </div>
          </div>
        </form>
      )}
    </div>
  );
}
