/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/wasm packages must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "@node-rs/argon2"],
  poweredByHeader: false,
};

export default nextConfig;
