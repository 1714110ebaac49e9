/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native packages must be loaded by Node, not bundled; unzipper too: it names an optional S3 client
  // it never loads for us, which the bundler would have to resolve.
  serverExternalPackages: [
    "pg",
    "pg-boss",
    "@node-rs/argon2",
    "pino",
    "pino-pretty",
    "prom-client",
    "opossum",
    "unzipper",
  ],
  poweredByHeader: false,
  // Portfolio files are uploaded to a server action (the Portfolios page): BATCH_MAX_BYTES' default,
  // 10 MiB, and the form's own bytes. Larger portfolios go through the API (POST /batches).
  // authInterrupts: `forbidden()` answers 403 with app/forbidden.tsx to a role a page is not for.
  experimental: { serverActions: { bodySizeLimit: "11mb" }, authInterrupts: true },
  async headers() {
    return [
      {
        // No page of ours may be framed by another site (clickjacking on sign-in, key and endpoint actions).
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
