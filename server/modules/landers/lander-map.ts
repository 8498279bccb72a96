import { loadCountryCoder } from '#server/lib/lazy-packages.ts';
import { regionsOf } from '#server/modules/regions/regions.data.ts';

/**
 * The map lander's SVG map of a country, made here from offline data (docs/decisions, "lander map"):
 * the country's outline from country-coder's borders, and one shape per region drawn as the
 * region's Voronoi cell around its centre (country-state-city), clipped to the outline by the page.
 * Region borders are approximate; nothing is fetched from the internet.
 */

type Point = [number, number];
type Ring = Point[];

export type MapGeometry = {
  viewBox: string;
  outline: string;
  regions: { code: string; path: string; x: number; y: number }[];
};

/** Centres that country-state-city places wrongly (South Holland lies in Illinois there). */
const centreFixes: Record<string, { latitude: number; longitude: number }> = {
  'NL-ZH': { latitude: 52.0, longitude: 4.5 },
};

const width = 320;
const cache = new Map<string, MapGeometry | null>();

/** The country's outline polygons (lon/lat rings) of its main territory, or null when unknown. */
type FeaturesContaining = Awaited<ReturnType<typeof loadCountryCoder>>['featuresContaining'];

function outlineOf(featuresContaining: FeaturesContaining, country: string, centre: Point): Ring[] | null {
  // The most specific area at the centre that has borders and belongs to the country (the European
  // Netherlands, metropolitan France, …).
  const feature = featuresContaining(centre).find(
    (candidate) =>
      candidate.geometry &&
      (candidate.properties.iso1A2 === country || candidate.properties.country === country),
  );
  const geometry = feature?.geometry;
  if (!geometry) return null;
  const polygons: number[][][][] =
    geometry.type === 'Polygon'
      ? [geometry.coordinates]
      : geometry.type === 'MultiPolygon'
        ? geometry.coordinates
        : [];
  return polygons.map((polygon) => (polygon[0] ?? []).map((point): Point => [point[0] ?? 0, point[1] ?? 0]));
}

function insideRing(point: Point, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as Point;
    const [xj, yj] = ring[j] as Point;
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

/** Keeps the part of a convex polygon on the side of `site` of the bisector between site and other. */
function clipByBisector(cell: Ring, site: Point, other: Point): Ring {
  const mid: Point = [(site[0] + other[0]) / 2, (site[1] + other[1]) / 2];
  const normal: Point = [other[0] - site[0], other[1] - site[1]];
  const side = (point: Point) => (point[0] - mid[0]) * normal[0] + (point[1] - mid[1]) * normal[1];
  const result: Ring = [];
  for (let i = 0; i < cell.length; i++) {
    const current = cell[i] as Point;
    const next = cell[(i + 1) % cell.length] as Point;
    const a = side(current);
    const b = side(next);
    if (a <= 0) result.push(current);
    if ((a < 0 && b > 0) || (a > 0 && b < 0)) {
      const t = a / (a - b);
      result.push([current[0] + t * (next[0] - current[0]), current[1] + t * (next[1] - current[1])]);
    }
  }
  return result;
}

/** Drops points closer than `tolerance` to the last kept one: enough for a map 320 px wide. */
function simplify(ring: Ring, tolerance: number): Ring {
  const kept: Ring = [];
  for (const point of ring) {
    const last = kept.at(-1);
    if (!last || Math.hypot(point[0] - last[0], point[1] - last[1]) >= tolerance) kept.push(point);
  }
  return kept;
}

const round = (value: number) => Math.round(value * 10) / 10;
const pathOf = (ring: Ring) =>
  ring.length < 3 ? '' : `M${ring.map(([x, y]) => `${round(x)} ${round(y)}`).join('L')}Z`;

/** The country's map, projected to a box 320 wide; null for a country without outline or regions. */
export async function countryMap(country: string): Promise<MapGeometry | null> {
  if (cache.has(country)) return cache.get(country) ?? null;
  const { featuresContaining } = await loadCountryCoder();
  const regions = regionsOf(country).map((region) => ({
    ...region,
    ...centreFixes[`${country}-${region.code}`],
  }));
  const result = buildMap(featuresContaining, country, regions);
  cache.set(country, result);
  return result;
}

function buildMap(
  featuresContaining: FeaturesContaining,
  country: string,
  regions: { code: string; latitude: number; longitude: number }[],
): MapGeometry | null {
  if (regions.length === 0) return null;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const centre: Point = [
    median(regions.map((region) => region.longitude)),
    median(regions.map((region) => region.latitude)),
  ];
  const outline = outlineOf(featuresContaining, country, centre);
  if (!outline) return null;
  // The main territory: the polygons near the centre (no far islands or overseas parts).
  const main = outline.filter((ring) =>
    ring.some(([lon, lat]) => Math.hypot(lon - centre[0], lat - centre[1]) < 12),
  );
  const rings = main.length > 0 ? main : outline;
  const points = rings.flat();
  const minLon = Math.min(...points.map((point) => point[0]));
  const maxLon = Math.max(...points.map((point) => point[0]));
  const minLat = Math.min(...points.map((point) => point[1]));
  const maxLat = Math.max(...points.map((point) => point[1]));
  const cosLat = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const scale = width / ((maxLon - minLon) * cosLat || 1);
  const height = Math.ceil((maxLat - minLat) * scale);
  const project = ([lon, lat]: Point): Point => [(lon - minLon) * cosLat * scale, (maxLat - lat) * scale];

  const projectedOutline = rings
    .map((ring) => simplify(ring.map(project), 1.2))
    .filter((ring) => ring.length > 2);
  const sites = regions
    .map((region) => ({ code: region.code, point: project([region.longitude, region.latitude]) }))
    .filter((site) => projectedOutline.some((ring) => insideRing(site.point, ring)));
  const box: Ring = [
    [-10, -10],
    [width + 10, -10],
    [width + 10, height + 10],
    [-10, height + 10],
  ];
  return {
    viewBox: `0 0 ${width} ${height}`,
    outline: projectedOutline.map(pathOf).join(''),
    regions: sites.map((site) => {
      let cell = box;
      for (const other of sites) {
        if (other !== site) cell = clipByBisector(cell, site.point, other.point);
      }
      return { code: site.code, path: pathOf(cell), x: round(site.point[0]), y: round(site.point[1]) };
    }),
  };
}
