// The one error a dataset file's readers throw: file, line and column named, and never a value of
// the file (a message quoting a row could carry anything a register wrote).
export class RegisterFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: string | number | null,
    detail: string,
  ) {
    const at = column === null ? "" : `, column ${typeof column === "number" ? column : `"${column}"`}`;
    super(`${file}: line ${line}${at}: ${detail}`);
  }
}
