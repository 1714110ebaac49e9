-- Registration dates are not issue dates (issue 40). Castilla y León, Canarias, Asturias and
-- Catalonia (ICAEN's data_entrada) give only the day a certificate entered the register; it was
-- stored as the issue date and validity was derived from it. Index records imported before are
-- moved to registeredOn (new imports write both keys), and certificates stored on properties from
-- those registers get registered_on, no issue date and an unknown validity. Other stored
-- certificates are derived again when read (lib/domain/property.ts certificateAsOf).
UPDATE "register_records"
SET "data" = ("data" - 'issuedOn') || jsonb_build_object('issuedOn', null, 'registeredOn', "data" -> 'issuedOn')
WHERE "kind" = 'certificate'
  AND "dataset" IN ('cyl-jcyl', 'can-gobcan', 'ast-principado', 'cat-icaen')
  AND NOT ("data" ? 'registeredOn');
--> statement-breakpoint
UPDATE "properties"
SET "energy_certificate" = "energy_certificate" || jsonb_build_object(
  'issued_on', null,
  'registered_on', "energy_certificate" -> 'issued_on',
  'valid_until', null,
  'valid_until_source', 'unknown',
  'expired', null
)
WHERE "energy_certificate" ->> 'source' = 'registry'
  AND NOT ("energy_certificate" ? 'valid_until_source')
  AND "energy_certificate" ->> 'registry' IN (
    'JCyL certificados de eficiencia energética',
    'Gobierno de Canarias RCEE',
    'Principado de Asturias registro de certificados de eficiencia energética',
    'ICAEN (j6ii-t3w2)'
  );
