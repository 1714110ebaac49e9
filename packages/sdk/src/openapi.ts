// Generated from the partner API's OpenAPI document by scripts/generate-sdk.ts: do not edit.
export type paths = {
    "/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List properties, newest first
         * @description Properties of this key's partner and mode, newest first. Pass the page's `next_starting_after` as `starting_after` for the next page; `status` keeps only properties in that state; `cadastral_reference` finds the property of a reference.
         */
        get: operations["listProperties"];
        put?: never;
        /**
         * Register a property
         * @description Normalises the reference (trim, remove spaces and hyphens, upper-case), validates it, and answers within the enrichment deadline with what is known. Idempotent per reference: a repeat answers 200 with the existing property. With an `Idempotency-Key`, a repeat within 24 h answers as the first request did: 201 with the property it registered (as it is now); the key with another reference is a 422.
         */
        post: operations["createProperty"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/properties/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a property
         * @description The property as it stands now: members still being enriched are null until their source finishes (`enrichment` says which).
         */
        get: operations["getProperty"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List batches, newest first
         * @description Batches of this key's partner and mode, newest first. Pass the page's `next_starting_after` as `starting_after` for the next page.
         */
        get: operations["listBatches"];
        put?: never;
        /**
         * Register a portfolio
         * @description Registers many references in one request, counted once against the write limit. The body is JSON (1 to 10,000 items), CSV (`text/csv`) or an XLSX workbook (`application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, its first sheet), a file up to 100,000 rows and 10 MiB, read the same way as the portal and the CLI read it: its header row is found among the first 20 rows (title rows above it are skipped); name the batch with `?name=`, and columns not named as the schema says with `?reference_column=` and `?external_id_column=`. A file where no row names a reference column is a 422 listing the accepted names. Answers 202 with the batch at once; each valid item is then registered exactly as a create would (a reference you registered before reuses its property) and enriched in the background, `property.enriched` per new property and `batch.completed` at the end. A bad reference never fails the request: its item is `invalid`. At most 5 batches queued or running per mode.
         */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a batch
         * @description The batch with its counts per item status (refreshed about every second while it runs).
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        /**
         * Cancel a batch
         * @description Items not yet started end `cancelled`; items already registered finish enriching, and `batch.completed` follows once they have. A batch already completed or cancelled is answered as it is.
         */
        delete: operations["cancelBatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a batch's items, in input order
         * @description Items in input order (by `line`); `status` keeps only items in that state. Pass the page's `next_starting_after` (a line) as `starting_after` for the next page.
         */
        get: operations["listBatchItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a batch's results (CSV, XLSX or NDJSON)
         * @description Every item in input order with its property's data, streamed: CSV (default; UTF-8 with BOM, RFC 4180; cells starting with =, +, - or @ are prefixed with `'`), an XLSX workbook with `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet` (the CSV's columns as typed cells: numbers, dates, booleans; every text exactly as given, never a formula) or NDJSON with `Accept: application/x-ndjson` (`{item, property}` a line). To join back to a loan system by `external_id`, use XLSX or NDJSON: the CSV's `'` prefix changes such texts. Available while the batch runs: what is known so far.
         */
        get: operations["getBatchResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The webhook endpoints of this key's partner and mode, without their signing secrets (the portal reveals and rotates them).
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint
         * @description Live mode requires https. Addresses in private, loopback, link-local and reserved ranges are refused.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Stops deliveries to the endpoint at once; deliveries already made stay visible in the portal.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the members sent (at least one of `url`, `description`, `event_types`, `enabled`); the others stay. A new URL follows the rules of a create (live mode requires https; private, loopback, link-local and reserved addresses are refused) and takes effect from the next attempt, retries of earlier events included. The signing secret does not change.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhooks/listen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream test-mode events for local forwarding (finca listen)
         * @description Test keys only. A Server-Sent Events stream: first a `session` event with the signing secret of this key's listen sessions (`{"secret":"whsec_…"}`, the same on every connection), then one `webhook` event per test-mode event recorded after the connection opened, within 500 ms: `{"id","type","headers","body"}`, where `headers` are the Standard Webhooks headers signed over `body` exactly as a delivery is. `finca listen --forward-to <url>` (the SDK's CLI) POSTs each to a local receiver. Comment lines keep the stream alive; at most 5 sessions per partner at once. The stream ends with an `error` event once the key is revoked or past a roll's expiry (checked every 5000 ms), and with `end` (`{"reason":"session_limit"}`) after 3600 s: reconnect.
         */
        get: operations["listenWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What each register covers, per autonomous community
         * @description For each of the 19 autonomous communities and cities, and each source (cadastre, energy certificate, ITE), the providers asked in order and the best kind among them: `live` (a register queried by reference), `index` (a local copy of an open dataset, with its `as_of` date and row count), `rules` (ITE age rules only), `estimate` (energy only) or `unsupported`. País Vasco and Navarra keep foral cadastres the national cadastre does not cover.
         */
        get: operations["getCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description The OpenAPI 3.1 document of this API, generated from the same schemas that validate requests. No key needed.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    "property.enriched": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every source of a property reached a final state
         * @description Sent once per property when its enrichment finished after the create response (a property answered complete at creation sends none). `data` is the property as `GET /properties/{id}` returns it. Verify the signature with a Standard Webhooks library (e.g. `standardwebhooks`, `svix`) and the endpoint's `whsec_` secret before trusting the body.
         */
        post: operations["propertyEnriched"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "batch.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every item of a batch is final or cancelled
         * @description Sent once per batch when no item is pending any more (also for a cancelled batch, once the items it had started have finished). `data` is the batch as `GET /batches/{id}` returns it. Verify the signature with a Standard Webhooks library (e.g. `standardwebhooks`, `svix`) and the endpoint's `whsec_` secret before trusting the body.
         */
        post: operations["batchCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test event sent from the portal
         * @description Sent to one endpoint when its owner presses "Send test event" in the portal (also to a disabled endpoint), to check it is reachable and verifies signatures. Verify the signature with a Standard Webhooks library (e.g. `standardwebhooks`, `svix`) and the endpoint's `whsec_` secret before trusting the body.
         */
        post: operations["webhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        CreatePropertyRequest: {
            /**
             * @description 14-character parcel or 20-character unit reference; spaces and hyphens are ignored.
             * @example 2749704YJ0624N0001DI
             */
            cadastral_reference: string;
        };
        CreateBatchRequest: {
            items: {
                /** @description As on a single create; an invalid one makes its item `invalid`, not the request. */
                cadastral_reference: string;
                /** @description Your own id for the item, echoed in items and results. */
                external_id?: string | null;
            }[];
            name?: string;
        };
        CreateWebhookEndpointRequest: {
            /** @example https://example.com/webhooks/finca */
            url: string;
            description?: string;
            /** @description The events to send here; default every type, types added later included. `webhook.test` is always sent. */
            event_types?: ("property.enriched" | "batch.completed")[];
        };
        UpdateWebhookEndpointRequest: {
            /** @example https://example.com/webhooks/finca */
            url?: string;
            /** @description Null or an empty string removes the description. */
            description?: string | null;
            /** @description Replaces the events sent here; null: every type, types added later included. `webhook.test` is always sent. */
            event_types?: ("property.enriched" | "batch.completed")[] | null;
            /** @description `false` disables the endpoint (nothing is sent to it; `disabled_reason` is `disabled_by_partner`); `true` enables it again and forgets its run of failures. */
            enabled?: boolean;
        };
        propertyEnrichedEvent: {
            /** @constant */
            type: "property.enriched";
            /**
             * Format: date-time
             * @description RFC 3339
             */
            timestamp: string;
            data: components["schemas"]["Property"];
        };
        Property: {
            /** Format: uuid */
            property_id: string;
            cadastral_reference: string;
            /** @enum {string} */
            status: "enriching" | "enriched" | "partially_enriched" | "not_found";
            address: string | null;
            municipality: string | null;
            province: string | null;
            /** @description Autonomous community, derived from the province. */
            ccaa: string | null;
            year_built: number | null;
            /** @description CTE DB-HE 2019 climate zone, e.g. D3 or α3. */
            climate_zone: string | null;
            /** @description null until the certificate source answers, and where neither a certificate nor an estimate exists (land, parking, unknown year). */
            energy_certificate: components["schemas"]["EnergyCertificate"] | null;
            /**
             * @default pending
             * @enum {string}
             */
            ite_fetch_status: "pending" | "found" | "not_found" | "not_required" | "unsupported" | "failed";
            /** @description null until the ITE source answers. */
            ite: components["schemas"]["Ite"] | null;
            /** @description Main use, normalised from Catastro's; a parcel's is the use with the largest built area. */
            use: ("residential" | "commercial" | "office" | "industrial" | "parking_storage" | "hospitality_leisure" | "public_services" | "religious" | "sports" | "agricultural" | "land" | "other") | null;
            /** @description Catastro's own label (luso), e.g. Residencial. */
            use_label: string | null;
            /** @description Built surface of the unit; for a 14-character parcel, the sum over its units. */
            built_area_m2: number | null;
            /** @description Surface of the parcel (plot), when Catastro gives it. */
            plot_area_m2: number | null;
            /** @description Number of units in the parcel, when known. */
            units_in_parcel: number | null;
            /** @description Staircase, floor and door of a 20-character reference; null for parcels. */
            unit: components["schemas"]["Unit"] | null;
            /** @description 5 digits. */
            postal_code: string | null;
            /** @description INE municipality code, 5 digits. */
            municipality_code: string | null;
            /** @description null when the coordinates service did not answer. */
            location: components["schemas"]["Location"] | null;
            enrichment: {
                cadastre: components["schemas"]["SourceEnrichment"];
                energy_certificate: components["schemas"]["SourceEnrichment"];
                ite: components["schemas"]["SourceEnrichment"];
            };
            /** @description The notices the sources behind this Property's values require (the cadastre's source notice, each CC BY publisher's name), one per source, deduplicated; [] for sandbox data. */
            attribution: string[];
            /**
             * Format: date-time
             * @description RFC 3339
             */
            created_at: string;
            /**
             * Format: date-time
             * @description RFC 3339
             */
            updated_at: string;
            enriched_at: string | null;
        };
        EnergyCertificate: {
            /**
             * @description Non-renewable primary energy letter: the label's headline (for an estimate, the most probable letter).
             * @enum {string}
             */
            rating: "A" | "B" | "C" | "D" | "E" | "F" | "G";
            /**
             * @description registry: an official certificate was found; estimated: no certificate, modelled.
             * @enum {string}
             */
            source: "registry" | "estimated";
            /** @description CO2 emissions letter; null when the registry does not give it, and for estimates. */
            emissions_rating: ("A" | "B" | "C" | "D" | "E" | "F" | "G") | null;
            /** @description Non-renewable primary energy, kWh/m²·year; null when not given, and for estimates. */
            primary_energy_kwh_m2_year: number | null;
            /** @description CO2 emissions, kg/m²·year; null when not given, and for estimates. */
            emissions_kg_co2_m2_year: number | null;
            /** @description The day the certificate was issued; null when the registry does not give it (some give only a registration date: registered_on), and for estimates. */
            issued_on: string | null;
            /** @description The day the certificate entered the registry, when the registry gives that date; null otherwise, and for estimates. */
            registered_on: string | null;
            /** @description End of validity: the registry's, else issued_on + 10 years (+ 5 years for a G issued on or after 2021-06-02, RD 390/2021; 29 February becoming 28 February); null when neither is known (a registration date alone does not date the issue), and for estimates. */
            valid_until: string | null;
            /** @description registry: the registry gives valid_until; derived: worked out from issued_on; unknown: neither given (e.g. only a registration date). Null for estimates. */
            valid_until_source: ("registry" | "derived" | "unknown") | null;
            /** @description valid_until is before today (the date in Europe/Madrid); null when valid_until is unknown, and for estimates. */
            expired: boolean | null;
            /** @description unit: the unit's own certificate; building: the whole building's, standing in for the unit. Null for estimates. */
            scope: ("unit" | "building") | null;
            /** @description Registry that holds the certificate; null for estimates. */
            registry: string | null;
            /** @description The certificate's number in its registry, when given; null for estimates. */
            certificate_id: string | null;
            /** @description Estimates only: the model's probability of each letter; null for registry certificates. */
            probabilities: components["schemas"]["RatingProbabilities"] | null;
            /** @description Estimates only: how much to trust the letter; null for registry certificates. */
            confidence: ("medium" | "low" | "very_low") | null;
            /** @description Estimates only: what the estimate rests on (inputs and the published data behind the model); null for registry certificates. */
            basis: string | null;
            /** @description Estimates only: the narrowest run of consecutive letters holding at least 80 % of the probability; null for registry certificates. */
            plausible_range: components["schemas"]["PlausibleRange"] | null;
        };
        /** @description Probability of each letter; they sum to 1. */
        RatingProbabilities: {
            A: number;
            B: number;
            C: number;
            D: number;
            E: number;
            F: number;
            G: number;
        };
        /** @description The narrowest run of consecutive letters holding at least 80 % of the estimate's probability. */
        PlausibleRange: {
            /** @enum {string} */
            from: "A" | "B" | "C" | "D" | "E" | "F" | "G";
            /** @enum {string} */
            to: "A" | "B" | "C" | "D" | "E" | "F" | "G";
        };
        Ite: {
            /**
             * @description Equals ite_fetch_status.
             * @enum {string}
             */
            status: "pending" | "found" | "not_found" | "not_required" | "unsupported" | "failed";
            /** @description Date of the latest inspection on record; null when none is known. */
            inspected_on: string | null;
            /** @description Result of that inspection; null when the registry does not say. */
            result: ("favourable" | "unfavourable" | "conditional") | null;
            /** @description When the next inspection is due: the latest inspection + 10 years, or (none on record) the end of the year the building reaches its region's confirmed first-inspection age; null where no age is confirmed. */
            next_due_on: string | null;
            /** @description true when next_due_on is before today (the date in Europe/Madrid), false when it is today or later; null only when next_due_on is null. */
            overdue: boolean | null;
            /** @description Registry the record comes from; null for rules-only answers. */
            registry: string | null;
            /** @description The inspection's reference in that registry, when given. */
            reference: string | null;
        };
        Unit: {
            staircase: string | null;
            /** @description As Catastro writes it: 00 ground, -1 basement, EN, PR, … */
            floor: string | null;
            door: string | null;
        };
        /** @description WGS 84 decimal degrees of the parcel. */
        Location: {
            latitude: number;
            longitude: number;
        };
        SourceEnrichment: {
            /**
             * @description pending: not finished, being retried; completed: data or a definite answer; failed: retries exhausted.
             * @enum {string}
             */
            status: "pending" | "completed" | "failed";
            attempts: number;
            /**
             * Format: date-time
             * @description RFC 3339
             */
            updated_at: string;
            /** @description Last error code while failing, else null. */
            error: string | null;
            /** @description Which register answered: catastro-ovc, icaen-socrata, gva-wfs, aragon-gaodcore, index:<dataset>, rules, estimate, sandbox…; null before any answer. */
            provider: string | null;
            /** @description The publisher's date of the data used: an index copy's snapshot date (from the dataset's published metadata, else its latest record date, never the download day); the answer's date for a live register; null for rules, estimates and sandbox data. */
            as_of: string | null;
            /** @description When Finca read it: imported the index copy, or asked the live register; null when nothing was read. */
            retrieved_at: string | null;
            /** @description The index dataset's id (index:<dataset> providers), else null. */
            dataset: string | null;
            /** @description The source's licence, e.g. CC-BY-4.0, or the publisher's terms' name; null when nothing was read. */
            licence: string | null;
        };
        batchCompletedEvent: {
            /** @constant */
            type: "batch.completed";
            /**
             * Format: date-time
             * @description RFC 3339
             */
            timestamp: string;
            data: components["schemas"]["Batch"];
        };
        Batch: {
            /** Format: uuid */
            batch_id: string;
            name: string | null;
            /**
             * @description queued: accepted, not started; running: items are being registered and enriched; completed: every item is final; cancelled: cancelled by the partner (items already registered still finish enriching).
             * @enum {string}
             */
            status: "queued" | "running" | "completed" | "cancelled";
            counts: components["schemas"]["BatchCounts"];
            /**
             * Format: date-time
             * @description RFC 3339
             */
            created_at: string;
            started_at: string | null;
            /** @description When every item was final or cancelled. */
            completed_at: string | null;
        };
        /** @description Items per status; they add up to `total`. */
        BatchCounts: {
            total: number;
            invalid: number;
            duplicate: number;
            pending: number;
            enriched: number;
            partially_enriched: number;
            not_found: number;
            cancelled: number;
        };
        webhookTestEvent: {
            /** @constant */
            type: "webhook.test";
            /**
             * Format: date-time
             * @description RFC 3339
             */
            timestamp: string;
            data: components["schemas"]["WebhookTestData"];
        };
        WebhookTestData: {
            /** Format: uuid */
            endpoint_id: string;
            message: string;
        };
        InvalidCadastralReferenceProblem: {
            /** @constant */
            type: "/docs/errors#invalid_cadastral_reference";
            title: string;
            /** @constant */
            status: 400;
            detail: string;
            /** @enum {string} */
            code: "invalid_cadastral_reference";
            request_id: string;
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            } | {
                header: string;
                detail: string;
            } | {
                line: number;
                detail: string;
            })[];
        };
        MissingApiKeyProblem: {
            /** @constant */
            type: "/docs/errors#missing_api_key";
            title: string;
            /** @constant */
            status: 401;
            detail: string;
            /** @enum {string} */
            code: "missing_api_key";
            request_id: string;
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            } | {
                header: string;
                detail: string;
            } | {
                line: number;
                detail: string;
            })[];
        };
        ValidationErrorProblem: {
            /** @constant */
            type: "/docs/errors#validation_error";
            title: string;
            /** @constant */
            status: 422;
            detail: string;
            /** @enum {string} */
            code: "validation_error";
            request_id: string;
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            } | {
                header: string;
                detail: string;
            } | {
                line: number;
                detail: string;
            })[];
        };
        RateLimitedProblem: {
            /** @constant */
            type: "/docs/errors#rate_limited";
            title: string;
            /** @constant */
            status: 429;
            detail: string;
            /** @enum {string} */
            code: "rate_limited";
            request_id: string;
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            } | {
                header: string;
                detail: string;
            } | {
                line: number;
                detail: string;
            })[];
        };
        PropertyList: {
            data: components["schemas"]["PropertyOutput"][];
            has_more: boolean;
            /** @description Pass as starting_after for the next page. */
            next_starting_after: string | null;
        };
        NotFoundProblem: {
            /** @constant */
            type: "/docs/errors#not_found";
            title: string;
            /** @constant */
            status: 404;
            detail: string;
            /** @enum {string} */
            code: "not_found";
            request_id: string;
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            } | {
                header: string;
                detail: string;
            } | {
                line: number;
                detail: string;
            })[];
        };
        TooManyActiveBatchesProblem: {
            /** @constant */
            type: "/docs/errors#too_many_active_batches";
            title: string;
            /** @constant */
            status: 409;
            detail: string;
            /** @enum {string} */
            code: "too_many_active_batches";
            request_id: string;
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            } | {
                header: string;
                detail: string;
            } | {
                line: number;
                detail: string;
            })[];
        };
        BatchList: {
            data: components["schemas"]["BatchOutput"][];
            has_more: boolean;
            /** @description Pass as starting_after for the next page. */
            next_starting_after: string | null;
        };
        BatchItemList: {
            data: components["schemas"]["BatchItem"][];
            has_more: boolean;
            /** @description Pass as starting_after for the next page. */
            next_starting_after: number | null;
        };
        BatchItem: {
            /** @description 1-based position in the input (CSV: the data row, header excluded). */
            line: number;
            /** @description Normalised when valid; as sent (trimmed) when invalid. */
            cadastral_reference: string;
            external_id: string | null;
            /**
             * @description invalid: not a valid reference (see error); duplicate: the same reference earlier in the batch (its property_id is that item's); pending: registered or waiting to be, enriching; then the property's final status; cancelled: the batch was cancelled before the item started.
             * @enum {string}
             */
            status: "invalid" | "duplicate" | "pending" | "enriched" | "partially_enriched" | "not_found" | "cancelled";
            property_id: string | null;
            error: components["schemas"]["BatchItemError"] | null;
        };
        BatchItemError: {
            /** @constant */
            code: "invalid_cadastral_reference";
            detail: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            description: string | null;
            /** @description The events sent to this endpoint (`webhook.test` always is). An endpoint created without `event_types` receives every type, types added later included. */
            event_types: ("property.enriched" | "batch.completed")[];
            enabled: boolean;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description RFC 3339
             */
            created_at: string;
        };
        WebhookEndpointWithSecret: {
            /** Format: uuid */
            id: string;
            url: string;
            description: string | null;
            /** @description The events sent to this endpoint (`webhook.test` always is). An endpoint created without `event_types` receives every type, types added later included. */
            event_types: ("property.enriched" | "batch.completed")[];
            enabled: boolean;
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description RFC 3339
             */
            created_at: string;
            /** @description Signing secret (whsec_...), shown only in this response. */
            secret: string;
        };
        Coverage: {
            data: components["schemas"]["CommunityCoverage"][];
        };
        CommunityCoverage: {
            ccaa: string;
            cadastre: components["schemas"]["CoverageSource"];
            energy_certificate: components["schemas"]["CoverageSource"];
            ite: components["schemas"]["CoverageSource"];
            /** @description Why a community is not covered (the foral cadastres), or the part of it an imported dataset covers (a city's register). */
            note: string | null;
        };
        CoverageSource: {
            /**
             * @description The strongest kind among the providers: live, then index, then rules or estimate; unsupported when none
             * @enum {string}
             */
            kind: "live" | "index" | "rules" | "estimate" | "unsupported";
            /** @description In the order they are asked. */
            providers: components["schemas"]["CoverageProvider"][];
            /** @description The source of this kind covers only part of the community (e.g. one city's inspection register): `area` names it. */
            partial: boolean;
            /** @description The part of the community a partial source covers, else null. */
            area: string | null;
        };
        CoverageProvider: {
            /** @description As in `enrichment.<source>.provider`: `catastro-ovc`, `icaen-socrata`, `index:<dataset>`, `rules`, `estimate`… */
            provider: string;
            /** @enum {string} */
            kind: "live" | "index" | "rules" | "estimate" | "unsupported";
            /** @description The index dataset (kind `index`). */
            dataset: string | null;
            /** @description The publisher's snapshot date of the dataset's copy (kind `index`): from its published metadata, else its latest record's date, never the download day. */
            as_of: string | null;
            /** @description The copy's as_of is older than REGISTER_STALE_DAYS (default 400); null for other kinds. */
            stale: boolean | null;
            /** @description Records in the dataset's copy (kind `index`). */
            rows: number | null;
            /** @description How far the register's format rests on evidence: `confirmed` (independent public evidence, cited), `single_source` (one peer's scripts), `unconfirmed`; null for `rules` and `estimate`. No format has been checked against a real download from Finca's own machines. */
            format_evidence: ("confirmed" | "single_source" | "unconfirmed") | null;
            /** @description Where the format comes from (repositories, files, documents). */
            citations: string[];
            /** @description The register's licence (e.g. `CC-BY-4.0`) or its publisher's terms' name; null for rules and estimates. */
            licence: string | null;
            /** @description The notice its licence requires next to its values (null: none). */
            attribution: string | null;
        };
        PropertyOutput: {
            /** Format: uuid */
            property_id: string;
            cadastral_reference: string;
            /** @enum {string} */
            status: "enriching" | "enriched" | "partially_enriched" | "not_found";
            address: string | null;
            municipality: string | null;
            province: string | null;
            /** @description Autonomous community, derived from the province. */
            ccaa: string | null;
            year_built: number | null;
            /** @description CTE DB-HE 2019 climate zone, e.g. D3 or α3. */
            climate_zone: string | null;
            /** @description null until the certificate source answers, and where neither a certificate nor an estimate exists (land, parking, unknown year). */
            energy_certificate: components["schemas"]["EnergyCertificateOutput"] | null;
            /**
             * @default pending
             * @enum {string}
             */
            ite_fetch_status: "pending" | "found" | "not_found" | "not_required" | "unsupported" | "failed";
            /** @description null until the ITE source answers. */
            ite: components["schemas"]["IteOutput"] | null;
            /** @description Main use, normalised from Catastro's; a parcel's is the use with the largest built area. */
            use: ("residential" | "commercial" | "office" | "industrial" | "parking_storage" | "hospitality_leisure" | "public_services" | "religious" | "sports" | "agricultural" | "land" | "other") | null;
            /** @description Catastro's own label (luso), e.g. Residencial. */
            use_label: string | null;
            /** @description Built surface of the unit; for a 14-character parcel, the sum over its units. */
            built_area_m2: number | null;
            /** @description Surface of the parcel (plot), when Catastro gives it. */
            plot_area_m2: number | null;
            /** @description Number of units in the parcel, when known. */
            units_in_parcel: number | null;
            /** @description Staircase, floor and door of a 20-character reference; null for parcels. */
            unit: components["schemas"]["UnitOutput"] | null;
            /** @description 5 digits. */
            postal_code: string | null;
            /** @description INE municipality code, 5 digits. */
            municipality_code: string | null;
            /** @description null when the coordinates service did not answer. */
            location: components["schemas"]["LocationOutput"] | null;
            enrichment: {
                cadastre: components["schemas"]["SourceEnrichmentOutput"];
                energy_certificate: components["schemas"]["SourceEnrichmentOutput"];
                ite: components["schemas"]["SourceEnrichmentOutput"];
            };
            /** @description The notices the sources behind this Property's values require (the cadastre's source notice, each CC BY publisher's name), one per source, deduplicated; [] for sandbox data. */
            attribution: string[];
            /**
             * Format: date-time
             * @description RFC 3339
             */
            created_at: string;
            /**
             * Format: date-time
             * @description RFC 3339
             */
            updated_at: string;
            enriched_at: string | null;
        };
        EnergyCertificateOutput: {
            /**
             * @description Non-renewable primary energy letter: the label's headline (for an estimate, the most probable letter).
             * @enum {string}
             */
            rating: "A" | "B" | "C" | "D" | "E" | "F" | "G";
            /**
             * @description registry: an official certificate was found; estimated: no certificate, modelled.
             * @enum {string}
             */
            source: "registry" | "estimated";
            /** @description CO2 emissions letter; null when the registry does not give it, and for estimates. */
            emissions_rating: ("A" | "B" | "C" | "D" | "E" | "F" | "G") | null;
            /** @description Non-renewable primary energy, kWh/m²·year; null when not given, and for estimates. */
            primary_energy_kwh_m2_year: number | null;
            /** @description CO2 emissions, kg/m²·year; null when not given, and for estimates. */
            emissions_kg_co2_m2_year: number | null;
            /** @description The day the certificate was issued; null when the registry does not give it (some give only a registration date: registered_on), and for estimates. */
            issued_on: string | null;
            /** @description The day the certificate entered the registry, when the registry gives that date; null otherwise, and for estimates. */
            registered_on: string | null;
            /** @description End of validity: the registry's, else issued_on + 10 years (+ 5 years for a G issued on or after 2021-06-02, RD 390/2021; 29 February becoming 28 February); null when neither is known (a registration date alone does not date the issue), and for estimates. */
            valid_until: string | null;
            /** @description registry: the registry gives valid_until; derived: worked out from issued_on; unknown: neither given (e.g. only a registration date). Null for estimates. */
            valid_until_source: ("registry" | "derived" | "unknown") | null;
            /** @description valid_until is before today (the date in Europe/Madrid); null when valid_until is unknown, and for estimates. */
            expired: boolean | null;
            /** @description unit: the unit's own certificate; building: the whole building's, standing in for the unit. Null for estimates. */
            scope: ("unit" | "building") | null;
            /** @description Registry that holds the certificate; null for estimates. */
            registry: string | null;
            /** @description The certificate's number in its registry, when given; null for estimates. */
            certificate_id: string | null;
            /** @description Estimates only: the model's probability of each letter; null for registry certificates. */
            probabilities: components["schemas"]["RatingProbabilitiesOutput"] | null;
            /** @description Estimates only: how much to trust the letter; null for registry certificates. */
            confidence: ("medium" | "low" | "very_low") | null;
            /** @description Estimates only: what the estimate rests on (inputs and the published data behind the model); null for registry certificates. */
            basis: string | null;
            /** @description Estimates only: the narrowest run of consecutive letters holding at least 80 % of the probability; null for registry certificates. */
            plausible_range: components["schemas"]["PlausibleRangeOutput"] | null;
        };
        /** @description Probability of each letter; they sum to 1. */
        RatingProbabilitiesOutput: {
            A: number;
            B: number;
            C: number;
            D: number;
            E: number;
            F: number;
            G: number;
        };
        /** @description The narrowest run of consecutive letters holding at least 80 % of the estimate's probability. */
        PlausibleRangeOutput: {
            /** @enum {string} */
            from: "A" | "B" | "C" | "D" | "E" | "F" | "G";
            /** @enum {string} */
            to: "A" | "B" | "C" | "D" | "E" | "F" | "G";
        };
        IteOutput: {
            /**
             * @description Equals ite_fetch_status.
             * @enum {string}
             */
            status: "pending" | "found" | "not_found" | "not_required" | "unsupported" | "failed";
            /** @description Date of the latest inspection on record; null when none is known. */
            inspected_on: string | null;
            /** @description Result of that inspection; null when the registry does not say. */
            result: ("favourable" | "unfavourable" | "conditional") | null;
            /** @description When the next inspection is due: the latest inspection + 10 years, or (none on record) the end of the year the building reaches its region's confirmed first-inspection age; null where no age is confirmed. */
            next_due_on: string | null;
            /** @description true when next_due_on is before today (the date in Europe/Madrid), false when it is today or later; null only when next_due_on is null. */
            overdue: boolean | null;
            /** @description Registry the record comes from; null for rules-only answers. */
            registry: string | null;
            /** @description The inspection's reference in that registry, when given. */
            reference: string | null;
        };
        UnitOutput: {
            staircase: string | null;
            /** @description As Catastro writes it: 00 ground, -1 basement, EN, PR, … */
            floor: string | null;
            door: string | null;
        };
        /** @description WGS 84 decimal degrees of the parcel. */
        LocationOutput: {
            latitude: number;
            longitude: number;
        };
        SourceEnrichmentOutput: {
            /**
             * @description pending: not finished, being retried; completed: data or a definite answer; failed: retries exhausted.
             * @enum {string}
             */
            status: "pending" | "completed" | "failed";
            attempts: number;
            /**
             * Format: date-time
             * @description RFC 3339
             */
            updated_at: string;
            /** @description Last error code while failing, else null. */
            error: string | null;
            /** @description Which register answered: catastro-ovc, icaen-socrata, gva-wfs, aragon-gaodcore, index:<dataset>, rules, estimate, sandbox…; null before any answer. */
            provider: string | null;
            /** @description The publisher's date of the data used: an index copy's snapshot date (from the dataset's published metadata, else its latest record date, never the download day); the answer's date for a live register; null for rules, estimates and sandbox data. */
            as_of: string | null;
            /** @description When Finca read it: imported the index copy, or asked the live register; null when nothing was read. */
            retrieved_at: string | null;
            /** @description The index dataset's id (index:<dataset> providers), else null. */
            dataset: string | null;
            /** @description The source's licence, e.g. CC-BY-4.0, or the publisher's terms' name; null when nothing was read. */
            licence: string | null;
        };
        BatchOutput: {
            /** Format: uuid */
            batch_id: string;
            name: string | null;
            /**
             * @description queued: accepted, not started; running: items are being registered and enriched; completed: every item is final; cancelled: cancelled by the partner (items already registered still finish enriching).
             * @enum {string}
             */
            status: "queued" | "running" | "completed" | "cancelled";
            counts: components["schemas"]["BatchCountsOutput"];
            /**
             * Format: date-time
             * @description RFC 3339
             */
            created_at: string;
            started_at: string | null;
            /** @description When every item was final or cancelled. */
            completed_at: string | null;
        };
        /** @description Items per status; they add up to `total`. */
        BatchCountsOutput: {
            total: number;
            invalid: number;
            duplicate: number;
            pending: number;
            enriched: number;
            partially_enriched: number;
            not_found: number;
            cancelled: number;
        };
    };
    responses: never;
    parameters: {
        /** @description The message id, stable across retries and replays: deduplicate on it; the portal's deliveries are searchable by it. */
        WebhookId: string;
        /** @description Unix seconds when this attempt was signed; refuse stale ones. */
        WebhookTimestamp: string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret (two during a rotation). */
        WebhookSignature: string;
    };
    requestBodies: never;
    headers: {
        /** @description Echo of a sane incoming X-Request-Id, or a generated `req_…` id. Quote it to support; find it in the portal's Logs. */
        XRequestId: string;
        /** @description Writes only: `"writes";q=100;w=60`. */
        RateLimitPolicy: string;
        /** @description Writes only: `"writes";r=<remaining>;t=<seconds until a slot frees>`. */
        RateLimit: string;
        /** @description Whole seconds to wait before retrying. */
        RetryAfter: string;
        /** @description Path of the created item. */
        Location: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listProperties: {
        parameters: {
            query?: {
                /** @description Items per page, 1 to 100; default 20. */
                limit?: number;
                /**
                 * @description The `next_starting_after` of the previous page: the page starts after that object.
                 * @example b330fa5d-2feb-46a5-ace6-fcb991777049
                 */
                starting_after?: string;
                /**
                 * @description Only properties in this status (enriching, enriched, partially_enriched, not_found); default: every status.
                 * @example enriched
                 */
                status?: "enriching" | "enriched" | "partially_enriched" | "not_found";
                /**
                 * @description Only the property of this reference (normalised as on create): `data` holds at most one.
                 * @example 2749704YJ0624N0001DI
                 */
                cadastral_reference?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of properties. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyList"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
        };
    };
    createProperty: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 200 visible characters: the same key and body within 24 h answer 200 with what the first request created, and create nothing; the same key with another body is a 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePropertyRequest"];
            };
        };
        responses: {
            /** @description The reference was already registered: the existing property. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyOutput"];
                };
            };
            /** @description Registered (or, with its Idempotency-Key within 24 h, registered by that key's first request). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyOutput"];
                };
            };
            /** @description `invalid_cadastral_reference`: not 14 or 20 characters of [0-9A-ZÑ], or wrong check letters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["InvalidCadastralReferenceProblem"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
            /** @description `rate_limited`: more than 100 write requests in the last 60 s for this partner and mode. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    getProperty: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example b330fa5d-2feb-46a5-ace6-fcb991777049
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The property. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyOutput"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
        };
    };
    listBatches: {
        parameters: {
            query?: {
                /** @description Items per page, 1 to 100; default 20. */
                limit?: number;
                /**
                 * @description The `next_starting_after` of the previous page: the page starts after that object.
                 * @example ff6d4f27-3e6b-4192-a734-3c4d472da1b0
                 */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of batches. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchList"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
        };
    };
    createBatch: {
        parameters: {
            query?: {
                /**
                 * @description The batch's name, for a CSV or XLSX body (a JSON body names it in `name`).
                 * @example Hipotecas 2026-Q3
                 */
                name?: string;
                /** @description For a CSV or XLSX body: the header name of the column holding the cadastral references (any case; accents, spaces and hyphens ignored), when it is not named as the body's schema says. The header row is then the first of the first 20 rows holding that name. */
                reference_column?: string;
                /** @description For a CSV or XLSX body: the header name of the column holding your ids (`external_id`) (any case; accents, spaces and hyphens ignored), when it is not named as the body's schema says. The header row is then the first of the first 20 rows holding that name. */
                external_id_column?: string;
            };
            header?: {
                /** @description Up to 200 visible characters: the same key and body within 24 h answer 200 with what the first request created, and create nothing; the same key with another body is a 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBatchRequest"];
                "text/csv": string | Blob;
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": Blob;
            };
        };
        responses: {
            /** @description This Idempotency-Key created a batch within 24 h: that batch (nothing new was created). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchOutput"];
                };
            };
            /** @description Accepted: the batch, queued. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchOutput"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `too_many_active_batches`: too many batches of this partner and mode are queued or running. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["TooManyActiveBatchesProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
            /** @description `rate_limited`: more than 100 write requests in the last 60 s for this partner and mode. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example ff6d4f27-3e6b-4192-a734-3c4d472da1b0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchOutput"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example ff6d4f27-3e6b-4192-a734-3c4d472da1b0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch, cancelled. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchOutput"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
            /** @description `rate_limited`: more than 100 write requests in the last 60 s for this partner and mode. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    listBatchItems: {
        parameters: {
            query?: {
                /** @description Items per page, 1 to 1000; default 20. */
                limit?: number;
                /** @description The `line` after which the page starts. */
                starting_after?: number;
                /**
                 * @description Only items in this status (invalid, duplicate, pending, enriched, partially_enriched, not_found, cancelled); default: every status.
                 * @example invalid
                 */
                status?: "invalid" | "duplicate" | "pending" | "enriched" | "partially_enriched" | "not_found" | "cancelled";
            };
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example ff6d4f27-3e6b-4192-a734-3c4d472da1b0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of items. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchItemList"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
        };
    };
    getBatchResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example ff6d4f27-3e6b-4192-a734-3c4d472da1b0
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The results. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "application/x-ndjson": string;
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Endpoints of this partner and mode (secrets are not listed). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Up to 200 visible characters: the same key and body within 24 h answer 200 with what the first request created, and create nothing; the same key with another body is a 422. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description Created; `secret` is shown only now. A repeat of the request with its Idempotency-Key within 24 h answers the same again (that endpoint, its secret) and creates nothing. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
            /** @description `rate_limited`: more than 100 write requests in the last 60 s for this partner and mode. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example 203950f4-3d73-4b19-a7ee-411cc2aa08b8
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
            /** @description `rate_limited`: more than 100 write requests in the last 60 s for this partner and mode. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The item's id (a UUID). Any other value, like an unknown id, answers 404.
                 * @example 203950f4-3d73-4b19-a7ee-411cc2aa08b8
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The endpoint as updated (its secret is not shown). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundProblem"];
                };
            };
            /** @description `validation_error`: body not JSON, not an object, missing or mistyped field, unknown field, or wrong Content-Type. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
            /** @description `rate_limited`: more than 100 write requests in the last 60 s for this partner and mode. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    listenWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream (text/event-stream); it ends when the client or the server goes. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
            /** @description `validation_error`: a live key (live events go to your registered endpoints). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationErrorProblem"];
                };
            };
            /** @description `rate_limited`: 5 listen sessions of this partner are open already, or the server holds all it can: 100 of all partners, of which organisations without live access hold 50 % at most. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedProblem"];
                };
            };
        };
    };
    getCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Coverage per community. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Coverage"];
                };
            };
            /** @description `missing_api_key`: the X-API-Key header is missing, or the key is invalid, revoked or expired. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["MissingApiKeyProblem"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    propertyEnriched: {
        parameters: {
            query?: never;
            header: {
                /** @description The message id, stable across retries and replays: deduplicate on it; the portal's deliveries are searchable by it. */
                "webhook-id": components["parameters"]["WebhookId"];
                /** @description Unix seconds when this attempt was signed; refuse stale ones. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret (two during a rotation). */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["propertyEnrichedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in time) is a failed attempt: retried on the endpoint's schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    batchCompleted: {
        parameters: {
            query?: never;
            header: {
                /** @description The message id, stable across retries and replays: deduplicate on it; the portal's deliveries are searchable by it. */
                "webhook-id": components["parameters"]["WebhookId"];
                /** @description Unix seconds when this attempt was signed; refuse stale ones. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret (two during a rotation). */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["batchCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in time) is a failed attempt: retried on the endpoint's schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTest: {
        parameters: {
            query?: never;
            header: {
                /** @description The message id, stable across retries and replays: deduplicate on it; the portal's deliveries are searchable by it. */
                "webhook-id": components["parameters"]["WebhookId"];
                /** @description Unix seconds when this attempt was signed; refuse stale ones. */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per valid secret (two during a rotation). */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["webhookTestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 15 s acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer in time) is a failed attempt: retried on the endpoint's schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
