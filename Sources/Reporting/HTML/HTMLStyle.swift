/// The HTML report's one stylesheet, inlined in its `<style>`: no web font, no image, no `url()`, so the file
/// is whole on its own (mailed, attached to a release ticket, opened offline).
///
/// Verdict colours are pale backgrounds with dark text of the same hue (contrast above 4.5:1), and every
/// coloured cell also carries a symbol and a word. Print keeps the colours and drops the scroll box.
enum HTMLStyle {
    static let css = """
        :root { color-scheme: light; --ink: #1f2328; --dim: #59636e; --line: #d1d9e0; --soft: #f6f8fa;
          --pass: #0a5c36; --pass-bg: #d3f2e0; --fail: #a40e26; --fail-bg: #ffdfe0;
          --warn: #7a4700; --warn-bg: #fff0c2; --unknown: #3d4a5c; --unknown-bg: #e3e8ef;
          --none: #4b5563; --none-bg: #eceef1; --note: #0b4f8a; --note-bg: #dcebfb; }
        * { box-sizing: border-box; }
        body { margin: 0; color: var(--ink); background: #fff;
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
        header, main, footer { max-width: 1280px; margin: 0 auto; padding: 0 24px; }
        header { padding-top: 22px; padding-bottom: 14px; border-bottom: 1px solid var(--line); }
        .kicker { margin: 0; color: var(--dim); font-size: 13px; letter-spacing: .02em; }
        h1 { font-size: 24px; margin: 2px 0 10px; overflow-wrap: anywhere; }
        h2 { font-size: 19px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
        h3 { font-size: 16px; margin: 16px 0 6px; overflow-wrap: anywhere; }
        code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
          font-size: 13px; }
        code { overflow-wrap: break-word; }
        .facts code, td.where code { overflow-wrap: anywhere; }
        a { color: #0b57b0; }
        .verdict { display: inline-block; margin: 4px 0 12px; padding: 6px 14px; border-radius: 6px;
          font-weight: 700; font-size: 16px; border: 1px solid currentColor; }
        .facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 2px 24px;
          margin: 0 0 12px; }
        .facts div { display: flex; gap: 10px; }
        .facts dt { flex: 0 0 104px; color: var(--dim); }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        .counts { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 6px; }
        .counts li { padding: 3px 10px; border-radius: 14px; border: 1px solid var(--line); background: var(--soft); }
        .counts li.zero { color: var(--dim); }
        .lead, .sub, .dim { color: var(--dim); }
        .lead { margin: 4px 0 10px; }
        .sub { display: block; font-size: 13px; font-weight: 400; }
        h3 .sub, .chip + .sub { display: inline; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; margin: 6px 0 12px; }
        th, td { border: 1px solid var(--line); padding: 5px 9px; text-align: left; vertical-align: top; }
        thead th { background: var(--soft); font-size: 13px; }
        table.issues, table.findings, table.pins, table.diagnostics { width: 100%; }
        .matrix th, .matrix td { padding: 4px 7px; }
        .matrix th[scope=row] { font-weight: 400; }
        .matrix th.era { text-align: center; white-space: nowrap; font-size: 12px; }
        td.cell { text-align: center; white-space: nowrap; font-weight: 700; font-size: 12.5px; }
        .matrix td.cell { vertical-align: middle; }
        .pins td.cell .sub { font-weight: 400; }
        .rules { display: block; font-size: 12px; }
        .rules a { margin-right: 6px; white-space: nowrap; }
        table.issues td:first-child, table.findings td:nth-child(2) { white-space: nowrap; }
        td.where { font-size: 13px; min-width: 200px; max-width: 340px; }
        .sym { display: inline-block; min-width: 1em; text-align: center; font-weight: 700; }
        .chip { display: inline-block; padding: 0 7px; border-radius: 4px; font-size: 12px; font-weight: 700;
          white-space: nowrap; vertical-align: 1px; }
        .s-pass { background: var(--pass-bg); color: var(--pass); }
        .s-fail { background: var(--fail-bg); color: var(--fail); }
        .s-warn { background: var(--warn-bg); color: var(--warn); }
        .s-unknown { background: var(--unknown-bg); color: var(--unknown); }
        .s-none { background: var(--none-bg); color: var(--none);
          background-image: repeating-linear-gradient(135deg, transparent 0 6px, rgba(0,0,0,.05) 6px 8px); }
        .s-note { background: var(--note-bg); color: var(--note); }
        .legend { list-style: none; padding: 0; margin: 0 0 8px; display: flex; flex-wrap: wrap; gap: 4px 18px;
          font-size: 13px; color: var(--dim); }
        .entry { border: 1px solid var(--line); border-radius: 6px; padding: 2px 14px 6px; margin: 10px 0; }
        .entry h3 { margin-top: 10px; }
        pre.paste { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px;
          overflow-x: auto; tab-size: 4; margin: 6px 0 10px; }
        .catalogue dt { margin-top: 10px; font-weight: 600; }
        .catalogue dd { margin: 2px 0 0 22px; }
        .notes, .eras, .risks { margin: 4px 0 8px; padding-left: 22px; }
        .notes { color: var(--dim); font-size: 13px; }
        .risks { padding-left: 0; list-style: none; }
        .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 0 28px; }
        .columns ul { padding-left: 20px; margin: 4px 0; }
        details { margin: 10px 0; }
        summary { cursor: pointer; color: var(--dim); }
        footer { margin-top: 28px; padding-top: 8px; padding-bottom: 24px; border-top: 1px solid var(--line);
          color: var(--dim); font-size: 13px; }
        @media print { .scroll { overflow: visible; } * { print-color-adjust: exact; -webkit-print-color-adjust: exact; } }

        """
}
