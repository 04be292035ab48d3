/** The languages of the end user's page (the access link's `lang`, or `?lang=`). */
export const PAGE_LANGUAGES = ['es', 'en', 'pt'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];
export const DEFAULT_PAGE_LANGUAGE: PageLanguage = 'es';

export interface PageMessages {
  title: string;
  stepOf: (n: number, total: number) => string;
  continue: string;
  send: string;
  required: string;
  invalid: string;
  genericError: string;
  /** A lockout after too many wrong codes; `{minutes}` is replaced by the wait. */
  tooManyAttempts: string;
  working: string;
  form: { heading: string; intro: string };
  email: { heading: string; intro: string; label: string; codeHeading: string; codeIntro: (to: string) => string };
  phone: {
    heading: string;
    intro: string;
    label: string;
    hint: string;
    codeHeading: string;
    codeIntro: (to: string) => string;
  };
  code: { label: string; hint: string; wrong: (attemptsLeft: number) => string; checking: string };
  document: {
    heading: string;
    intro: string;
    country: string;
    documentType: string;
    uploadHeading: string;
    uploadIntro: string;
    front: string;
    reverse: string;
    fileHint: string;
    checking: string;
    types: Record<string, string>;
  };
  face: { heading: string; intro: string; uploadHeading: string; selfie: string; fileHint: string; checking: string };
  preparing: string;
  capture: {
    camera: string;
    opening: string;
    noCamera: string;
    shutter: string;
    useFile: string;
    retake: string;
    previewOf: string;
    continueWith: string;
    taken: string;
    ready: string;
    advice: Record<'dark' | 'bright' | 'still' | 'blurry' | 'closer' | 'ok', string>;
    document: { start: string; place: string };
    face: { start: string; place: string };
  };
  outcome: {
    form: string;
    email: string;
    phone: string;
    document: string;
    face: string;
    retake: string;
    /** A photo step sent back to capture: why its last photo failed, and what to do. */
    retry: (reason: string) => string;
    slow: string;
  };
  result: {
    successHeading: string;
    successText: string;
    failureHeading: string;
    failureText: string;
    reason: string;
    redirecting: (seconds: number) => string;
    continueLink: string;
  };
  invalidLink: { heading: string; text: string };
  reasons: Record<string, string>;
}

const es: PageMessages = {
  title: 'Verificación de identidad',
  stepOf: (n, total) => `Paso ${n} de ${total}`,
  continue: 'Continuar',
  send: 'Enviar',
  required: 'Este campo es obligatorio.',
  invalid: 'Revisa este campo.',
  genericError: 'No pudimos enviar la información. Inténtalo de nuevo.',
  tooManyAttempts: 'Demasiados intentos: inténtalo de nuevo en {minutes} minutos.',
  working: 'Enviando…',
  form: { heading: 'Tus datos', intro: 'Completa los campos. Los marcados con * son obligatorios.' },
  email: {
    heading: 'Tu correo electrónico',
    intro: 'Te enviaremos un código de verificación.',
    label: 'Correo electrónico',
    codeHeading: 'Código del correo',
    codeIntro: (to) => `Escribe el código de 6 dígitos que enviamos a ${to}.`,
  },
  phone: {
    heading: 'Tu teléfono',
    intro: 'Te enviaremos un código por SMS.',
    label: 'Número de teléfono',
    hint: 'Con el código del país, por ejemplo +573001234567.',
    codeHeading: 'Código del SMS',
    codeIntro: (to) => `Escribe el código de 6 dígitos que enviamos a ${to}.`,
  },
  code: {
    label: 'Código de verificación',
    hint: '6 dígitos.',
    wrong: (n) => `El código no es correcto. Te quedan ${n} intentos.`,
    checking: 'Estamos comprobando el código…',
  },
  document: {
    heading: 'Tu documento',
    intro: 'Elige el país y el tipo de documento que vas a presentar.',
    country: 'País del documento',
    documentType: 'Tipo de documento',
    uploadHeading: 'Fotos del documento',
    uploadIntro: 'Sube una foto nítida de cada lado, sin reflejos.',
    front: 'Frente del documento',
    reverse: 'Reverso del documento',
    fileHint: 'Imagen JPEG o PNG de hasta 10 MB.',
    checking: 'Estamos revisando tu documento…',
    types: {
      'national-id': 'Documento nacional de identidad',
      'foreign-id': 'Documento de extranjería',
      passport: 'Pasaporte',
      'driver-license': 'Licencia de conducción',
      'identity-card': 'Tarjeta de identidad',
    },
  },
  face: {
    heading: 'Tu selfi',
    intro: 'Compararemos tu rostro con la foto de tu documento.',
    uploadHeading: 'Sube tu selfi',
    selfie: 'Selfi',
    fileHint: 'Una foto de tu rostro, de frente y con buena luz (JPEG o PNG).',
    checking: 'Estamos comparando tu rostro…',
  },
  preparing: 'Preparando el siguiente paso…',
  capture: {
    camera: 'Cámara',
    opening: 'Abriendo la cámara…',
    noCamera: 'No pudimos usar la cámara. Elige una foto de tu dispositivo.',
    shutter: 'Tomar la foto',
    useFile: 'Elegir un archivo',
    retake: 'Tomar otra vez',
    previewOf: 'Foto:',
    continueWith: 'Continuar con:',
    taken: 'Foto tomada.',
    ready: 'Fotos listas. Revísalas y pulsa Enviar.',
    advice: {
      dark: 'Hay muy poca luz: busca un lugar más iluminado.',
      bright: 'Hay demasiada luz o reflejos.',
      still: 'No te muevas.',
      blurry: 'La foto está borrosa.',
      closer: 'Acércate: el documento debe llenar el marco.',
      ok: 'Muy bien, no te muevas…',
    },
    document: { start: 'Coloca el documento dentro del marco.', place: 'Coloca el documento dentro del marco.' },
    face: {
      start: 'Coloca tu rostro dentro del óvalo, de frente y con los ojos abiertos.',
      place: 'Coloca tu rostro dentro del óvalo.',
    },
  },
  outcome: {
    form: 'Datos guardados',
    email: 'Correo verificado',
    phone: 'Teléfono verificado',
    document: 'Documento leído',
    face: 'El rostro coincide',
    retake: 'tómala de nuevo',
    retry: (reason) => `${reason} Toma la foto de nuevo.`,
    slow: 'Esto está tardando más de lo normal. La página se actualizará sola; también puedes volver más tarde con el mismo enlace.',
  },
  result: {
    successHeading: 'Verificación completada',
    successText: 'Gracias. Tu identidad fue verificada.',
    failureHeading: 'No pudimos verificar tu identidad',
    failureText: 'El proceso terminó sin éxito.',
    reason: 'Motivo',
    redirecting: (s) => `Te llevaremos de vuelta en ${s} segundos.`,
    continueLink: 'Volver ahora',
  },
  invalidLink: { heading: 'Enlace no válido', text: 'Este enlace expiró o no es válido. Pide uno nuevo.' },
  reasons: {
    similarity_threshold_not_passed: 'El rostro no coincide con el del documento.',
    face_not_detected: 'No encontramos un rostro en la foto.',
    document_face_not_detected: 'No encontramos un rostro en la foto del documento.',
    max_retries_exceeded: 'Se agotaron los intentos.',
    process_timeout: 'El tiempo del proceso se agotó.',
    invalid_mrz_check_digit: 'El documento no es válido.',
    mrz_not_found: 'No pudimos leer el documento.',
    data_mismatch: 'Los datos del documento no coinciden.',
    unreadable_image: 'La foto está borrosa o no se puede leer.',
    missing_image: 'Falta una foto.',
    photo_of_photo: 'La foto parece tomada de otra foto o de una pantalla.',
    photocopy: 'El documento parece una fotocopia.',
    manipulated_document: 'El documento parece alterado.',
    passive_liveness_failed: 'No pudimos confirmar que la foto se tomó en vivo.',
    no_enrolled_face: 'No encontramos un rostro de referencia.',
    validation_declined: 'La validación fue rechazada.',
    unreadable_document: 'No pudimos leer el documento: la foto está borrosa o incompleta.',
    invalid_document_number: 'No pudimos leer bien el número del documento.',
    invalid_media: 'No pudimos abrir la foto.',
    speech_not_matched: 'No entendimos las palabras pedidas.',
  },
};

const en: PageMessages = {
  title: 'Identity verification',
  stepOf: (n, total) => `Step ${n} of ${total}`,
  continue: 'Continue',
  send: 'Send',
  required: 'This field is required.',
  invalid: 'Check this field.',
  genericError: 'We could not send your information. Please try again.',
  tooManyAttempts: 'Too many attempts: try again in {minutes} minutes.',
  working: 'Sending…',
  form: { heading: 'Your details', intro: 'Fill in the fields. Those marked * are required.' },
  email: {
    heading: 'Your e-mail',
    intro: 'We will send you a verification code.',
    label: 'E-mail address',
    codeHeading: 'E-mail code',
    codeIntro: (to) => `Enter the 6-digit code we sent to ${to}.`,
  },
  phone: {
    heading: 'Your phone',
    intro: 'We will send you a code by SMS.',
    label: 'Phone number',
    hint: 'With the country code, for example +573001234567.',
    codeHeading: 'SMS code',
    codeIntro: (to) => `Enter the 6-digit code we sent to ${to}.`,
  },
  code: {
    label: 'Verification code',
    hint: '6 digits.',
    wrong: (n) => `The code is not correct. ${n} attempts left.`,
    checking: 'Checking the code…',
  },
  document: {
    heading: 'Your document',
    intro: 'Choose the country and the type of the document you will present.',
    country: 'Country of the document',
    documentType: 'Document type',
    uploadHeading: 'Photos of the document',
    uploadIntro: 'Upload a sharp photo of each side, without glare.',
    front: 'Front of the document',
    reverse: 'Back of the document',
    fileHint: 'A JPEG or PNG image of up to 10 MB.',
    checking: 'Checking your document…',
    types: {
      'national-id': 'National identity document',
      'foreign-id': 'Foreigner identity document',
      passport: 'Passport',
      'driver-license': 'Driving licence',
      'identity-card': 'Identity card',
    },
  },
  face: {
    heading: 'Your selfie',
    intro: 'We will compare your face with the photo on your document.',
    uploadHeading: 'Upload your selfie',
    selfie: 'Selfie',
    fileHint: 'A photo of your face, from the front and in good light (JPEG or PNG).',
    checking: 'Comparing your face…',
  },
  preparing: 'Preparing the next step…',
  capture: {
    camera: 'Camera',
    opening: 'Opening the camera…',
    noCamera: 'We could not use the camera. Choose a photo from your device.',
    shutter: 'Take the photo',
    useFile: 'Choose a file',
    retake: 'Take it again',
    previewOf: 'Photo:',
    continueWith: 'Continue with:',
    taken: 'Photo taken.',
    ready: 'Photos ready. Check them and press Send.',
    advice: {
      dark: 'Too dark: find more light.',
      bright: 'Too much light or glare.',
      still: 'Hold still.',
      blurry: 'The photo is blurry.',
      closer: 'Move closer: the document must fill the frame.',
      ok: 'Good, hold still…',
    },
    document: { start: 'Place the document inside the frame.', place: 'Place the document inside the frame.' },
    face: {
      start: 'Place your face inside the oval, facing the camera, eyes open.',
      place: 'Place your face inside the oval.',
    },
  },
  outcome: {
    form: 'Details saved',
    email: 'E-mail verified',
    phone: 'Phone verified',
    document: 'Document read',
    face: 'Face matches',
    retake: 'take it again',
    retry: (reason) => `${reason} Take the photo again.`,
    slow: 'This is taking longer than usual. The page will update by itself; you can also come back later with the same link.',
  },
  result: {
    successHeading: 'Verification complete',
    successText: 'Thank you. Your identity has been verified.',
    failureHeading: 'We could not verify your identity',
    failureText: 'The process ended without success.',
    reason: 'Reason',
    redirecting: (s) => `We will take you back in ${s} seconds.`,
    continueLink: 'Go back now',
  },
  invalidLink: { heading: 'Invalid link', text: 'This link has expired or is not valid. Ask for a new one.' },
  reasons: {
    similarity_threshold_not_passed: 'The face does not match the one on the document.',
    face_not_detected: 'We found no face in the photo.',
    document_face_not_detected: 'We found no face in the photo of the document.',
    max_retries_exceeded: 'No attempts left.',
    process_timeout: 'The time for the process ran out.',
    invalid_mrz_check_digit: 'The document is not valid.',
    mrz_not_found: 'We could not read the document.',
    data_mismatch: 'The data of the document does not match.',
    unreadable_image: 'The photo is blurry or cannot be read.',
    missing_image: 'A photo is missing.',
    photo_of_photo: 'The photo seems taken of another photo or a screen.',
    photocopy: 'The document seems a photocopy.',
    manipulated_document: 'The document seems altered.',
    passive_liveness_failed: 'We could not confirm the photo was taken live.',
    no_enrolled_face: 'We found no reference face.',
    validation_declined: 'The validation was declined.',
    unreadable_document: 'We could not read the document: the photo is blurry or incomplete.',
    invalid_document_number: 'We could not read the document number well.',
    invalid_media: 'We could not open the photo.',
    speech_not_matched: 'We did not understand the words asked for.',
  },
};

const pt: PageMessages = {
  title: 'Verificação de identidade',
  stepOf: (n, total) => `Etapa ${n} de ${total}`,
  continue: 'Continuar',
  send: 'Enviar',
  required: 'Este campo é obrigatório.',
  invalid: 'Verifique este campo.',
  genericError: 'Não conseguimos enviar as informações. Tente novamente.',
  tooManyAttempts: 'Muitas tentativas: tente novamente em {minutes} minutos.',
  working: 'Enviando…',
  form: { heading: 'Seus dados', intro: 'Preencha os campos. Os marcados com * são obrigatórios.' },
  email: {
    heading: 'Seu e-mail',
    intro: 'Enviaremos um código de verificação.',
    label: 'Endereço de e-mail',
    codeHeading: 'Código do e-mail',
    codeIntro: (to) => `Digite o código de 6 dígitos que enviamos para ${to}.`,
  },
  phone: {
    heading: 'Seu telefone',
    intro: 'Enviaremos um código por SMS.',
    label: 'Número de telefone',
    hint: 'Com o código do país, por exemplo +5511987654321.',
    codeHeading: 'Código do SMS',
    codeIntro: (to) => `Digite o código de 6 dígitos que enviamos para ${to}.`,
  },
  code: {
    label: 'Código de verificação',
    hint: '6 dígitos.',
    wrong: (n) => `O código não está correto. Restam ${n} tentativas.`,
    checking: 'Verificando o código…',
  },
  document: {
    heading: 'Seu documento',
    intro: 'Escolha o país e o tipo do documento que você vai apresentar.',
    country: 'País do documento',
    documentType: 'Tipo de documento',
    uploadHeading: 'Fotos do documento',
    uploadIntro: 'Envie uma foto nítida de cada lado, sem reflexos.',
    front: 'Frente do documento',
    reverse: 'Verso do documento',
    fileHint: 'Imagem JPEG ou PNG de até 10 MB.',
    checking: 'Estamos analisando seu documento…',
    types: {
      'national-id': 'Documento nacional de identidade',
      'foreign-id': 'Documento de estrangeiro',
      passport: 'Passaporte',
      'driver-license': 'Carteira de motorista',
      'identity-card': 'Carteira de identidade',
    },
  },
  face: {
    heading: 'Sua selfie',
    intro: 'Vamos comparar seu rosto com a foto do seu documento.',
    uploadHeading: 'Envie sua selfie',
    selfie: 'Selfie',
    fileHint: 'Uma foto do seu rosto, de frente e com boa luz (JPEG ou PNG).',
    checking: 'Estamos comparando seu rosto…',
  },
  preparing: 'Preparando a próxima etapa…',
  capture: {
    camera: 'Câmera',
    opening: 'Abrindo a câmera…',
    noCamera: 'Não conseguimos usar a câmera. Escolha uma foto do seu dispositivo.',
    shutter: 'Tirar a foto',
    useFile: 'Escolher um arquivo',
    retake: 'Tirar de novo',
    previewOf: 'Foto:',
    continueWith: 'Continuar com:',
    taken: 'Foto tirada.',
    ready: 'Fotos prontas. Confira e toque em Enviar.',
    advice: {
      dark: 'Está muito escuro: procure um lugar com mais luz.',
      bright: 'Há luz demais ou reflexos.',
      still: 'Não se mexa.',
      blurry: 'A foto está desfocada.',
      closer: 'Aproxime-se: o documento deve preencher a moldura.',
      ok: 'Muito bem, não se mexa…',
    },
    document: { start: 'Coloque o documento dentro da moldura.', place: 'Coloque o documento dentro da moldura.' },
    face: {
      start: 'Coloque seu rosto dentro do oval, de frente e com os olhos abertos.',
      place: 'Coloque seu rosto dentro do oval.',
    },
  },
  outcome: {
    form: 'Dados salvos',
    email: 'E-mail verificado',
    phone: 'Telefone verificado',
    document: 'Documento lido',
    face: 'O rosto corresponde',
    retake: 'tire de novo',
    retry: (reason) => `${reason} Tire a foto de novo.`,
    slow: 'Isso está demorando mais do que o normal. A página será atualizada sozinha; você também pode voltar mais tarde com o mesmo link.',
  },
  result: {
    successHeading: 'Verificação concluída',
    successText: 'Obrigado. Sua identidade foi verificada.',
    failureHeading: 'Não conseguimos verificar sua identidade',
    failureText: 'O processo terminou sem sucesso.',
    reason: 'Motivo',
    redirecting: (s) => `Vamos levar você de volta em ${s} segundos.`,
    continueLink: 'Voltar agora',
  },
  invalidLink: { heading: 'Link inválido', text: 'Este link expirou ou não é válido. Peça um novo.' },
  reasons: {
    similarity_threshold_not_passed: 'O rosto não corresponde ao do documento.',
    face_not_detected: 'Não encontramos um rosto na foto.',
    document_face_not_detected: 'Não encontramos um rosto na foto do documento.',
    max_retries_exceeded: 'As tentativas se esgotaram.',
    process_timeout: 'O tempo do processo se esgotou.',
    invalid_mrz_check_digit: 'O documento não é válido.',
    mrz_not_found: 'Não conseguimos ler o documento.',
    data_mismatch: 'Os dados do documento não correspondem.',
    unreadable_image: 'A foto está desfocada ou não pode ser lida.',
    missing_image: 'Falta uma foto.',
    photo_of_photo: 'A foto parece tirada de outra foto ou de uma tela.',
    photocopy: 'O documento parece uma fotocópia.',
    manipulated_document: 'O documento parece alterado.',
    passive_liveness_failed: 'Não conseguimos confirmar que a foto foi tirada ao vivo.',
    no_enrolled_face: 'Não encontramos um rosto de referência.',
    validation_declined: 'A validação foi recusada.',
    unreadable_document: 'Não conseguimos ler o documento: a foto está desfocada ou incompleta.',
    invalid_document_number: 'Não conseguimos ler bem o número do documento.',
    invalid_media: 'Não conseguimos abrir a foto.',
    speech_not_matched: 'Não entendemos as palavras pedidas.',
  },
};

export const PAGE_MESSAGES: Record<PageLanguage, PageMessages> = { es, en, pt };

/** `?lang=` wins, then the link's language, then the browser's Accept-Language, then Spanish. */
export function pageLanguage(...candidates: (string | undefined | null)[]): PageLanguage {
  for (const c of candidates) {
    for (const part of (c ?? '').split(',')) {
      const tag = part.trim().slice(0, 2).toLowerCase();
      if ((PAGE_LANGUAGES as readonly string[]).includes(tag)) return tag as PageLanguage;
    }
  }
  return DEFAULT_PAGE_LANGUAGE;
}
