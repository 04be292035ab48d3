import { phraseSimilarity, SandboxSpeechRecognizer } from './speech-recognizer';

describe('speech match', () => {
  it('scores phrases ignoring case, accents and punctuation', () => {
    expect(phraseSimilarity('Sol, mar y LUNA', 'sol mar y luna')).toBe(1);
    expect(phraseSimilarity('piedra', 'piédra')).toBe(1);
    expect(phraseSimilarity('sol mar luna', 'sol mar lana')).toBeCloseTo(1 - 1 / 12, 5);
    expect(phraseSimilarity('sol', 'nube campo fuego')).toBeLessThan(0.3);
  });

  it('the sandbox reads the transcript a test video carries', async () => {
    const video = Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), Buffer.from('SPEECH:sol mar luna\n')]);
    expect(await new SandboxSpeechRecognizer().transcribe(video)).toBe('sol mar luna');
    expect(await new SandboxSpeechRecognizer().transcribe(Buffer.from('nothing'))).toBeUndefined();
  });
});
