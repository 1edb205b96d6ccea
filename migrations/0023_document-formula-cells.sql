-- Issue 39 item 12: a CSV document holding a cell a spreadsheet would run as a formula (=HYPERLINK(…),
-- =cmd|…, or a cell starting with +, - or @ that is not a signed number) is flagged, so the partner and
-- the lender know before they open it (src/domain/documents/formula-cells.ts). Decided at upload; files
-- stored before this migration read false (they were not scanned).
ALTER TABLE `documents` ADD `formula_cells` integer DEFAULT false NOT NULL;
