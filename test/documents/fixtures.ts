/** Statement exports shaped like the ones banks hand their customers. */

/** Lloyds-style: split paid in / paid out columns, DD/MM/YYYY, three months (Jan to Mar 2026). */
export const splitColumnsCsv = [
  "Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance",
  "31/03/2026,FPI,'30-94-57,12345678,STRIPE PAYMENTS UK,,\"4,250.00\",\"18,220.40\"",
  "15/03/2026,DD,'30-94-57,12345678,\"HMRC VAT, QUARTERLY\",\"1,200.00\",,13970.40",
  "02/02/2026,FPI,'30-94-57,12345678,AMAZON PAYMENTS,,3000.50,15170.40",
  "20/01/2026,DEB,'30-94-57,12345678,OFFICE RENT,950.00,,12169.90",
  "05/01/2026,FPI,'30-94-57,12345678,SHOPIFY PAYOUT,,2749.50,13119.90",
].join("\r\n");

/** Monzo-style: one signed amount column, ISO dates, a currency column. */
export const signedAmountCsv = [
  "Transaction ID,Date,Time,Type,Name,Category,Amount,Currency,Notes",
  "tx_0001,2026-04-03,09:12:00,Faster payment,Client A,income,1500.00,GBP,",
  "tx_0002,2026-04-10,12:00:00,Card payment,Tesco,groceries,-42.15,GBP,\"milk, bread\"",
  "tx_0003,2026-05-01,08:00:00,Faster payment,Client B,income,2500.00,GBP,",
  "tx_0004,2026-05-20,17:45:00,Direct Debit,Insurer,bills,-120.00,GBP,",
].join("\n");

/** A preamble before the header, "DD MMM YYYY" dates, symbols, parentheses for negatives, a totals footer. */
/** A statement export one of whose cells a spreadsheet would run as a formula (OWASP CSV injection). */
export const csvWithFormula = `${signedAmountCsv}\ntx_0005,2026-05-21,10:00:00,Card payment,"=HYPERLINK(""http://evil.example"",""Open"")",other,-1.00,GBP,`;

export const preambleCsv = [
  "Account name:,WIDGETS LTD",
  "Sort code:,20-00-00",
  "Statement period:,01 Jun 2026 to 31 Jul 2026",
  "",
  "Date,Description,Paid in,Paid out,Balance",
  "01 Jun 2026,Opening balance,,,\"£10,000.00\"",
  "03 Jun 2026,CARD SALES,\"£1,234.56\",,\"£11,234.56\"",
  "14 Jun 2026,SUPPLIER LTD,,(£500.00),\"£10,734.56\"",
  "28 Jul 2026,CARD SALES,£765.44,,\"£11,500.00\"",
  ",Totals,\"£2,000.00\",£500.00,",
].join("\n");

/** Semicolon-delimited, DD-MM-YYYY, amounts in a column named with its currency. */
export const semicolonCsv = ["Booking date;Text;Amount (EUR)", "01-09-2026;Customer;1000.00", "30-09-2026;Rent;-400.00"].join("\n");

/** OFX 1.x (SGML): elements unclosed, a bank account, three months of transactions. */
export const ofxV1Bank = `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260401120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1>
<STMTTRNRS>
<TRNUID>1
<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS>
<CURDEF>GBP
<BANKACCTFROM><BANKID>200000<ACCTID>12345678<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST>
<DTSTART>20260101
<DTEND>20260331
<STMTTRN>
<TRNTYPE>CREDIT
<DTPOSTED>20260105000000[0:GMT]
<TRNAMT>3000.00
<FITID>1
<NAME>SHOPIFY PAYOUT
</STMTTRN>
<STMTTRN>
<TRNTYPE>DEBIT
<DTPOSTED>20260212
<TRNAMT>-250.75
<FITID>2
<NAME>ELECTRICITY
</STMTTRN>
<STMTTRN>
<TRNTYPE>CREDIT
<DTPOSTED>20260330
<TRNAMT>6000.00
<FITID>3
<NAME>STRIPE
</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>8749.25<DTASOF>20260331</LEDGERBAL>
</STMTRS>
</STMTTRNRS>
</BANKMSGSRSV1>
</OFX>
`;

/** OFX 2.x (XML): a credit-card account in EUR, one month. */
export const ofxV2Card = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX>
  <CREDITCARDMSGSRSV1>
    <CCSTMTTRNRS>
      <TRNUID>1</TRNUID>
      <CCSTMTRS>
        <CURDEF>EUR</CURDEF>
        <CCACCTFROM><ACCTID>4111111111111111</ACCTID></CCACCTFROM>
        <BANKTRANLIST>
          <DTSTART>20260801</DTSTART>
          <DTEND>20260831</DTEND>
          <STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260803</DTPOSTED><TRNAMT>-89.99</TRNAMT><FITID>a</FITID><NAME>SOFTWARE</NAME></STMTTRN>
          <STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20260825</DTPOSTED><TRNAMT>500.00</TRNAMT><FITID>b</FITID><NAME>PAYMENT THANK YOU</NAME></STMTTRN>
        </BANKTRANLIST>
      </CCSTMTRS>
    </CCSTMTTRNRS>
  </CREDITCARDMSGSRSV1>
</OFX>
`;

export const bytes = (text: string) => new TextEncoder().encode(text);
export const pdf = () => bytes("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
export const png = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
export const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
/** The first bytes of a zip whose first part is an Excel workbook. */
export const xlsx = () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, ...bytes("xl/workbook.xml"), 0, 0]);
export const zip = () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, ...bytes("word/document.xml"), 0, 0]);
export const gif = () => bytes("GIF89a\x01\x00\x01\x00");

/**
 * An iPhone photo's first bytes (HEIC): an ISO-BMFF `ftyp` box, major brand `heic`, compatible
 * brands `mif1` and `heic`, then padding where the image would be.
 */
export const heic = (brand = "heic") => {
  const head = new Uint8Array([0, 0, 0, 0x18, ...bytes("ftyp"), ...bytes(brand), 0, 0, 0, 0, ...bytes("mif1"), ...bytes("heic")]);
  const file = new Uint8Array(256);
  file.set(head);
  return file;
};
