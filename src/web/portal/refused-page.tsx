import { Document } from "./layout";

/** A plain page for a refused post (cross-site, no form token) or an unknown page: no session details on it. */
export const messagePage = (title: string, message: string) => (
  <Document title={title}>
    <main>
      <h1>{title}</h1>
      <p>{message}</p>
    </main>
  </Document>
);

export const refusedPage = (message: string) => messagePage("Refused", message);

/** Unknown pages and other organisations' records look the same: nothing says whether an id exists elsewhere. */
export const notFoundPage = () => messagePage("Not found", "There is no such page in the portal, or it is not yours to see.");
