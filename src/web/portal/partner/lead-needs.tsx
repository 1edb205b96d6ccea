/**
 * "What the lender needs" on the lead page (issue 45 item 2): per option ("Option 1", never a provider),
 * the lender's document requests with their state and the message thread's shape, and what the
 * partner can do about each: upload the document on the client's behalf (POST /leads/{id}/documents,
 * which every lender on the lead reads as the introducer's document) or send the client their link.
 * The lender's own text (a request's note, a message, an offer's notes) is not shown: it may name the
 * provider, so only the client reads it, in the hub.
 */
import { formatFor, LABELS } from "../../kit/format";
import { RecordTable } from "../../kit/table";
import type { OptionNeeds } from "../../../domain/portal/partner-waiting";
import { leadPath, type LeadView } from "./lead-view";

const OPEN = new Set(["requested"]);

function Thread({ lead, messages }: { lead: LeadView; messages: OptionNeeds["messages"] }) {
  if (!messages.lastFrom) return <p>No messages.</p>;
  const when = messages.lastAt ? formatFor(lead.country).time(messages.lastAt) : "";
  return (
    <p data-thread={messages.lastFrom}>
      {`Messages: ${messages.fromLender} from the lender, ${messages.fromClient} from the client. `}
      {messages.lastFrom === "lender" ? <strong>{`The lender wrote last (${when}): waiting for the client's reply.`}</strong> : `The client replied last (${when}).`}
    </p>
  );
}

export function LenderNeedsSection({ lead, needs }: { lead: LeadView; needs: OptionNeeds[] }) {
  if (!lead.submitted_at) return null;
  const f = formatFor(lead.country);
  return (
    <section aria-labelledby="needs-heading" id="lender-needs">
      <h2 id="needs-heading">What the lender needs</h2>
      {needs.length === 0 ? (
        <p>No lender has asked the client for anything yet.</p>
      ) : (
        <>
          <p class="muted">
            The client answers requests and messages through their link. You can upload a requested document for the client here: every lender on the lead sees it
            among the documents and can then close the request. What a lender writes is shown to the client only, so these lists name no provider.
          </p>
          {needs.map((o) => (
            <div data-option={o.option}>
              <h3>{o.option}</h3>
              {o.requests.length > 0 ? (
                <RecordTable
                  label={`${o.option}: document requests`}
                  rows={o.requests}
                  rowData={(r) => ({ request: r.id, status: r.status })}
                  inactive={(r) => (OPEN.has(r.status) || r.status === "uploaded" ? null : LABELS.requestStatus(r.status))}
                  columns={[
                    { header: "Asked for", rowHeader: true, cell: (r) => LABELS.requestItem(r.itemType) },
                    { header: "State", cell: (r) => LABELS.requestStatus(r.status) },
                    { header: "Asked on", cell: (r) => f.time(r.requestedAt) },
                    { header: "Files", cell: (r) => String(r.fileCount) },
                    {
                      header: "Action",
                      actions: true,
                      cell: (r) =>
                        OPEN.has(r.status) ? (
                          <a href={`${leadPath(lead.id)}?document_type=${encodeURIComponent(r.documentType)}#documents`}>
                            Upload it for the client<span class="visually-hidden">{`: ${LABELS.requestItem(r.itemType)}, ${o.option}`}</span>
                          </a>
                        ) : null,
                    },
                  ]}
                />
              ) : (
                <p>No document requests.</p>
              )}
              <Thread lead={lead} messages={o.messages} />
            </div>
          ))}
        </>
      )}
    </section>
  );
}
