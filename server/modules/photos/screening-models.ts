import { createRequire } from 'node:module';
import path from 'node:path';
import { loadSharp } from '#server/lib/lazy-packages.ts';
import type { ScreeningScores } from './screening-rules.ts';

/**
 * The two screening models on TensorFlow.js's WebAssembly backend (docs/decisions/045): nsfwjs's
 * MobileNetV2 (its weights ship inside the package, bundled as modules it imports from disk) and
 * face-api's tiny face detector with its age model (weights in the package's `model` folder). Nothing
 * is fetched: the WebAssembly binary is read from the backend package's folder, the weights from
 * theirs. Runs in the screening thread (photos/screener.ts), never on the server's event loop; the
 * bench calls it directly to measure its CPU.
 */

const require = createRequire(import.meta.url);
type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');
type Tf = typeof import('@tensorflow/tfjs');
type Nsfw = Awaited<ReturnType<typeof import('nsfwjs')['load']>>;

export type ModelFolders = {
  /** The folder of face-api's weights; tests point it elsewhere to see a load fail. */
  faceModels?: string;
};

type Loaded = { tf: Tf; faceapi: FaceApi; nsfw: Nsfw };

/** The face detector's input (px): 320 finds faces down to about a tenth of the photo, fast. */
const detectorInput = 320;
/** The side the image is scaled to for the detector (it scales again to its input). */
const detectorSide = 640;
/** nsfwjs's MobileNetV2 input. */
const nudityInput = 224;

let loading: Promise<Loaded> | undefined;

/** Loads both models once per thread, at the first photo; a failed load is retried at the next. */
export function loadModels(folders: ModelFolders = {}): Promise<Loaded> {
  loading ??= load(folders).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(folders: ModelFolders): Promise<Loaded> {
  const tf: Tf = require('@tensorflow/tfjs');
  const wasm: typeof import('@tensorflow/tfjs-backend-wasm') = require('@tensorflow/tfjs-backend-wasm');
  // A folder (not a URL) with platform fetch off: Emscripten reads the binary with fs.
  wasm.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`, false);
  if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend did not start');
  await tf.ready();
  const faceapi: FaceApi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
  const faceModels =
    folders.faceModels ??
    path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await faceapi.nets.tinyFaceDetector.loadFromDisk(faceModels);
  await faceapi.nets.ageGenderNet.loadFromDisk(faceModels);
  const nsfwjs = await import('nsfwjs');
  // nsfwjs tells the console which model it uses at every load; one line per thread is noise enough.
  const info = console.info;
  console.info = () => {};
  try {
    return { tf, faceapi, nsfw: await nsfwjs.load('MobileNetV2') };
  } finally {
    console.info = info;
  }
}

/** Decoded and scaled RGB pixels with their shape; the caller makes the tensor its model's types want. */
async function rgbPixels(image: Buffer, width: number, height: number, fit: 'inside' | 'fill') {
  const sharp = await loadSharp();
  const { data, info } = await sharp(image)
    .rotate()
    .resize(width, height, { fit, withoutEnlargement: fit === 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const shape: [number, number, number] = [info.height, info.width, 3];
  return { pixels: new Uint8Array(data.buffer, data.byteOffset, data.length), shape };
}

/** Both models' view of one image (any format sharp reads). */
export async function screenImage(image: Buffer, folders: ModelFolders = {}): Promise<ScreeningScores> {
  const { tf, faceapi, nsfw } = await loadModels(folders);
  const small = await rgbPixels(image, detectorSide, detectorSide, 'inside');
  // face-api carries its own copy of TensorFlow.js's types (the same library at run time).
  const forFaces = faceapi.tf.tensor3d(small.pixels, small.shape, 'int32');
  let faces: ScreeningScores['faces'];
  try {
    const found = await faceapi
      .detectAllFaces(
        forFaces,
        new faceapi.TinyFaceDetectorOptions({ inputSize: detectorInput, scoreThreshold: 0.5 }),
      )
      .withAgeAndGender();
    faces = found.map((face) => ({ score: face.detection.score, age: face.age }));
  } finally {
    forFaces.dispose();
  }
  const tiny = await rgbPixels(image, nudityInput, nudityInput, 'fill');
  const forNudity = tf.tensor3d(tiny.pixels, tiny.shape, 'int32');
  try {
    const predictions = await nsfw.classify(forNudity, 5);
    return {
      nudity: Object.fromEntries(
        predictions.map((prediction) => [prediction.className, prediction.probability]),
      ),
      faces,
    };
  } finally {
    forNudity.dispose();
  }
}
