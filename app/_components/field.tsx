// A form's labelled input: the label above, "(optional…)" beside it when the field may stay empty.
import type { InputHTMLAttributes, ReactNode } from "react";

export function Field({
  id,
  label,
  optional,
  className,
  inputClassName = "input",
  ...input
}: {
  id: string;
  label: ReactNode;
  /** true: "(optional)"; text: "(optional: text)". */
  optional?: true | string;
  /** The wrapper's classes (its place in the form's grid). */
  className?: string;
  inputClassName?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className">) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
        {optional && (
          <>
            {" "}
            <span className="font-normal text-slate-500">
              ({optional === true ? "optional" : `optional: ${optional}`})
            </span>
          </>
        )}
      </label>
      <input id={id} name={input.name ?? id} className={inputClassName} {...input} />
    </div>
  );
}
