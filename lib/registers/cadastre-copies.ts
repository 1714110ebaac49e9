// The cadastre index's copies: Catastro's bulk data kept per source and municipality. An import
// streams its files into a new generation of that copy (./generations.ts, as the datasets' imports:
// the previous copy stays until every file was read, and stays if any file fails): lookups always see
// one whole copy, and importing the same files again gives the same index. What a file holds that is
// no record is counted by reason at its line.
import { and, eq, sql } from "drizzle-orm";
import { bare, schema, type Db } from "@/lib/db";
import type { ImportFile } from "./import";
import { RegisterWriteError } from "./import";
import { writeGeneration } from "./generations";
import { type SkipCount, tally } from "./skips";
import type { CadastreSource } from "@/lib/domain";

const { cadastreCopies: copies, cadastreRecords: records } = schema;

/** A record of a copy, with the line of the file it comes from. */
export interface CadastreDraft {
  kind: string;
  parcel: string;
  unit: string | null;
  line: number;
  data: Record<string, unknown>;
}

/** What a file reader gives: a record, or a line left out and why. */
export type CadastreItem = { record: CadastreDraft } | { skip: string; line: number };

export interface CopyImport {
  source: CadastreSource;
  municipality: string;
  files: readonly ImportFile[];
  read: (file: ImportFile) => AsyncIterable<CadastreItem>;
  /** The publisher's date of the data, and where it was taken from. */
  asOf: () => { asOf: string | null; from: string };
  /** Work on the new generation before the switch (resolving what a file defines after its use). */
  finish?: (db: Db, generation: number) => Promise<void>;
  batchSize?: number;
}

export interface CopyResult {
  source: CadastreSource;
  municipality: string;
  generation: number;
  counts: Record<string, number>;
  skips: Record<string, SkipCount>;
  asOf: string | null;
  asOfFrom: string;
  superseded: boolean;
}

const MUNICIPALITY = /^\d{5}$/;

export async function importCopy(db: Db, job: CopyImport): Promise<CopyResult> {
  const { source, municipality } = job;
  if (!MUNICIPALITY.test(municipality))
    throw new Error(
      `the municipality must be Catastro's five-digit code (delegation and municipality), not "${municipality}"`,
    );
  if (!job.files.length) throw new Error(`no file given for ${source} ${municipality}`);
  const counts: Record<string, number> = {};
  const skips: Record<string, SkipCount> = {};
  const copy = {
    table: copies,
    key: {
      values: { source, municipality },
      columns: [copies.source, copies.municipality],
      where: and(eq(copies.source, source), eq(copies.municipality, municipality))!,
    },
    records: {
      table: records,
      generation: records.generation,
      where: and(eq(records.source, source), eq(records.municipality, municipality))!,
    },
  };
  const { generation, superseded, written } = await writeGeneration(
    db,
    copy,
    async (generation) => {
      for (const file of job.files) {
        let batch: CadastreDraft[] = [];
        const flush = async () => {
          if (batch.length) await insertBatch(db, job, generation, file.name, batch);
          batch = [];
        };
        for await (const item of job.read(file)) {
          if ("skip" in item) {
            tally(skips, item.skip, { file: file.name, line: item.line, column: null });
            continue;
          }
          counts[item.record.kind] = (counts[item.record.kind] ?? 0) + 1;
          batch.push(item.record);
          if (batch.length >= (job.batchSize ?? 2000)) await flush();
        }
        await flush();
      }
      if (!Object.keys(counts).length) throw new Error(`the files hold no ${source} record: are they ${source} files?`);
      await job.finish?.(db, generation);
      return job.asOf();
    },
    ({ asOf, from }) => ({
      counts,
      skips,
      asOf,
      asOfFrom: from,
      sourceFiles: job.files.map((f) => f.name).join(" "),
      importedAt: new Date(),
    }),
  );
  // Fresh statistics at once: before autovacuum gets to a table that just grew by a province, the
  // planner may read a parcel's lookup through the copy index, the whole copy per lookup.
  if (!superseded) await db.execute(sql`analyze ${records}`);
  return { source, municipality, generation, counts, skips, asOf: written.asOf, asOfFrom: written.from, superseded };
}

/** One statement per batch, the rows as one JSON parameter (as the register index writes). */
async function insertBatch(db: Db, job: CopyImport, generation: number, file: string, batch: CadastreDraft[]) {
  const rows = JSON.stringify(
    batch.map((r) => ({ kind: r.kind, parcel: r.parcel, unit: r.unit, line: r.line, data: r.data })),
  );
  const columns = [
    records.source,
    records.municipality,
    records.generation,
    records.kind,
    records.parcel,
    records.unit,
    records.sourceLine,
    records.data,
  ].map(bare);
  try {
    await db.execute(sql`
      insert into ${records} (${sql.join(columns, sql`, `)})
      select ${job.source}, ${job.municipality}, ${generation}, r.kind, r.parcel, r.unit, r.line, r.data
      from jsonb_to_recordset(${rows}::jsonb) as r(kind text, parcel text, unit text, line integer, data jsonb)`);
  } catch (error) {
    throw new RegisterWriteError(file, batch[0]!.line, batch[batch.length - 1]!.line, error);
  }
}
