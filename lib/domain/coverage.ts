// What the service can tell per autonomous community and source (GET /coverage, docs, admin).
import { z } from "zod";

export const COVERAGE_KINDS = ["live", "index", "rules", "estimate", "unsupported"] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

/**
 * How far a register's format (its columns, or its answer's fields) rests on evidence:
 * `confirmed` by independent public evidence (a publisher's own documentation or code, or several
 * independent readers of the same data), `single_source` (one peer's scripts), `unconfirmed`.
 */
export const FORMAT_EVIDENCE = ["confirmed", "single_source", "unconfirmed"] as const;
export type FormatEvidenceLevel = (typeof FORMAT_EVIDENCE)[number];

export const CoverageProvider = z
  .object({
    provider: z.string().meta({
      description:
        "As in `enrichment.<source>.provider`: `catastro-ovc`, `icaen-socrata`, `index:<dataset>`, `rules`, `estimate`…",
    }),
    kind: z.enum(COVERAGE_KINDS),
    dataset: z.string().nullable().meta({ description: "The index dataset (kind `index`)." }),
    as_of: z.string().nullable().meta({
      description:
        "The publisher's snapshot date of the dataset's copy (kind `index`): from its published metadata, else its latest record's date, never the download day.",
    }),
    stale: z.boolean().nullable().meta({
      description: "The copy's as_of is older than REGISTER_STALE_DAYS (default 400); null for other kinds.",
    }),
    rows: z.number().int().nullable().meta({ description: "Records in the dataset's copy (kind `index`)." }),
    format_evidence: z
      .enum(FORMAT_EVIDENCE)
      .nullable()
      .meta({
        description:
          "How far the register's format rests on evidence: `confirmed` (independent public evidence, cited), " +
          "`single_source` (one peer's scripts), `unconfirmed`; null for `rules` and `estimate`. " +
          "No format has been checked against a real download from Finca's own machines.",
      }),
    citations: z
      .array(z.string())
      .meta({ description: "Where the format comes from (repositories, files, documents)." }),
    licence: z.string().nullable().meta({
      description:
        "The register's licence (e.g. `CC-BY-4.0`) or its publisher's terms' name; null for rules and estimates.",
    }),
    attribution: z
      .string()
      .nullable()
      .meta({ description: "The notice its licence requires next to its values (null: none)." }),
  })
  .meta({ id: "CoverageProvider" });
export type CoverageProvider = z.infer<typeof CoverageProvider>;

export const CoverageSource = z
  .object({
    kind: z.enum(COVERAGE_KINDS).meta({
      description:
        "The strongest kind among the providers: live, then index, then rules or estimate; unsupported when none",
    }),
    providers: z.array(CoverageProvider).meta({ description: "In the order they are asked." }),
    partial: z.boolean().meta({
      description:
        "The source of this kind covers only part of the community (e.g. one city's inspection register): `area` names it.",
    }),
    area: z.string().nullable().meta({ description: "The part of the community a partial source covers, else null." }),
  })
  .meta({ id: "CoverageSource" });
export type CoverageSource = z.infer<typeof CoverageSource>;

export const CommunityCoverage = z
  .object({
    ccaa: z.string(),
    cadastre: CoverageSource,
    energy_certificate: CoverageSource,
    ite: CoverageSource,
    note: z.string().nullable().meta({
      description:
        "Why a community is not covered (the foral cadastres), or the part of it an imported dataset covers (a city's register).",
    }),
  })
  .meta({ id: "CommunityCoverage" });
export type CommunityCoverage = z.infer<typeof CommunityCoverage>;

export const Coverage = z.object({ data: z.array(CommunityCoverage) }).meta({ id: "Coverage" });
export type Coverage = z.infer<typeof Coverage>;
