// The links to the sample test-mode portfolio (app/docs/portfolios/sample/[file]/route.ts), as the
// Portfolios page and its guide offer it.
export function SamplePortfolioLinks() {
  return (
    <>
      <a className="link" href="/docs/portfolios/sample/portfolio.csv" download>
        CSV
      </a>{" "}
      or{" "}
      <a className="link" href="/docs/portfolios/sample/portfolio.xlsx" download>
        XLSX
      </a>
    </>
  );
}
