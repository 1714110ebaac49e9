"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useFormStatus } from "react-dom";

/**
 * A form's submit button that shows the form is working and cannot be pressed twice. With
 * `confirm`, the first press asks in the page (not `window.confirm`, which some browsers suppress
 * and screen readers announce poorly): the question, then Confirm or Cancel.
 */
export function SubmitButton({
  children,
  pendingText,
  className = "btn",
  confirm,
}: {
  children: React.ReactNode;
  pendingText?: string;
  className?: string;
  confirm?: string;
}) {
  const { pending } = useFormStatus();
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (confirm && asking) {
    return (
      <span
        role="alertdialog"
        aria-label="Confirm"
        aria-describedby={questionId}
        className="inline-flex max-w-md flex-wrap items-center justify-end gap-2 text-left"
      >
        <span id={questionId} className="text-sm text-slate-800">
          {confirm}
        </span>
        <button ref={confirmRef} type="submit" className={className} disabled={pending} aria-disabled={pending}>
          {pending ? (pendingText ?? "Working…") : "Confirm"}
        </button>
        <button type="button" className="btn-secondary btn-sm" disabled={pending} onClick={() => setAsking(false)}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <button
      type={confirm ? "button" : "submit"}
      className={className}
      disabled={pending}
      aria-disabled={pending}
      onClick={confirm ? () => setAsking(true) : undefined}
    >
      {pending ? (pendingText ?? children) : children}
    </button>
  );
}
