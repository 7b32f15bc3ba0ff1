// What one benchmark hands back to the runner: its markdown section and the
// SVG charts it drew (file name -> SVG text), written beside the markdown.

export interface BenchResult {
  markdown: string;
  charts?: Record<string, string>;
}
