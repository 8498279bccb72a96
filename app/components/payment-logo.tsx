import { useTranslation } from '#app/lib/use-translation.ts';
import type { paymentMethodOptions } from '#contract/payments.ts';

type Method = (typeof paymentMethodOptions)[number];

/** Our own marks for the payment methods (drawn here: no third-party host is asked for a logo). */
const marks: Record<Method, { bg: string; fg: string; text: string; size?: number; stroke?: boolean }> = {
  ideal: { bg: '#fff', fg: '#cc0066', text: 'iDEAL', stroke: true },
  bancontact: { bg: '#fff', fg: '#005498', text: 'Bancontact', size: 7.5, stroke: true },
  card: { bg: '#fff', fg: '#1a1f71', text: 'VISA', stroke: true },
  paypal: { bg: '#fff', fg: '#003087', text: 'PayPal', size: 10.5, stroke: true },
  applepay: { bg: '#000', fg: '#fff', text: ' Pay' },
  directdebit: { bg: '#10298e', fg: '#fff', text: 'SEPA' },
  sofort: { bg: '#ef809f', fg: '#fff', text: 'SOFORT', size: 9 },
  giropay: { bg: '#000268', fg: '#fff', text: 'giropay', size: 9.5 },
  eps: { bg: '#fff', fg: '#c8036f', text: 'eps', size: 14, stroke: true },
  blik: { bg: '#000', fg: '#fff', text: 'blik', size: 13 },
  // A drawn bank building, not a word: a word would be English on every page.
  banktransfer: { bg: '#eef2f7', fg: '#334155', text: '' },
  paysafecard: { bg: '#fff', fg: '#008ac9', text: 'paysafe', size: 9.5, stroke: true },
};

function isMethod(value: string): value is Method {
  return value in marks;
}

/** A payment method's logo; its accessible name is the method's translated name. */
export function PaymentLogo({ method, decorative = false }: { method: string; decorative?: boolean }) {
  const { t } = useTranslation();
  if (!isMethod(method)) return null;
  const mark = marks[method];
  const label = t(`credits:method.${method}`);
  // The name as hidden text, not aria-label: a form's "Credit card" label stays the radio's alone.
  const logo = (
    <svg
      className="method-logo"
      viewBox="0 0 48 30"
      width="48"
      height="30"
      aria-hidden="true"
      focusable="false"
    >
      <rect
        x="0.5"
        y="0.5"
        width="47"
        height="29"
        rx="4"
        fill={mark.bg}
        stroke={mark.stroke ? '#d0d5dd' : 'none'}
      />
      {method === 'card' && (
        <>
          <circle cx="33" cy="21" r="4" fill="#eb001b" />
          <circle cx="38" cy="21" r="4" fill="#f79e1b" fillOpacity="0.9" />
        </>
      )}
      {method === 'banktransfer' && (
        <path
          fill={mark.fg}
          d="M24 5 13 10.5v2h22v-2L24 5Zm-9 9v8h2.5v-8H15Zm5 0v8h2.5v-8H20Zm5.5 0v8H28v-8h-2.5Zm5 0v8H33v-8h-2.5ZM13 23v2.5h22V23H13Z"
        />
      )}
      <text
        x="24"
        y={method === 'card' ? 15 : 19}
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize={mark.size ?? 12}
        fontWeight="700"
        fontStyle={method === 'card' || method === 'paypal' ? 'italic' : undefined}
        fill={mark.fg}
      >
        {mark.text}
      </text>
    </svg>
  );
  if (decorative) return logo;
  return (
    <>
      {logo}
      <span className="visually-hidden">{label}</span>
    </>
  );
}
