"use client";

import { useFormStatus } from "react-dom";

/**
 * A form's submit button that shows the form is working and cannot be pressed twice. With
 * `confirm`, it asks first (destructive actions).
 */
export function SubmitButton({ children, pendingText, className = "btn", confirm }: { children: React.ReactNode; pendingText?: string; className?: string; confirm?: string }) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      className={className}
      disabled={pending}
      aria-disabled={pending}
      onClick={confirm ? (e) => { if (!window.confirm(confirm)) e.preventDefault(); } : undefined}
    >
      {pending ? (pendingText ?? children) : children}
    </button>
  );
}
