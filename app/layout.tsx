import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Finca", template: "%s · Finca" },
  description: "Register Spanish properties by cadastral reference and receive them enriched.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
