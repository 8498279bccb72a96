import { data } from 'react-router';

/** Any URL that no route claims: React Router answers 404 and the root error boundary shows the page. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
