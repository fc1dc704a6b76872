/** Server messages of the activity log, in es, en and ca: the filters' refusals and the new sign-in notice. */
export const activity = {
  es: {
    'activity.bad_date': 'Escribe la fecha como AAAA-MM-DD',
    'activity.bad_range': 'La fecha final no puede ser anterior a la inicial',
    'activity.bad_page': 'La página debe ser un número entero a partir de 1',
    'activity.bad_item': 'Elige un elemento de la lista',
    'activity.bad_area': 'Elige un área de la lista',
    'activity.new_signin_subject': 'Nuevo inicio de sesión en tu cuenta {{account}}',
    'activity.new_signin_text':
      'Hola {{name}}:\n\nSe ha iniciado sesión en tu cuenta {{account}} el {{date}} (UTC) desde la dirección {{ip}} con {{agent}}, que no habíamos visto antes en tu cuenta.\n\nSi has sido tú, no tienes que hacer nada. Si no, cambia tu contraseña cuanto antes y revisa la página Actividad del panel.',
  },
  en: {
    'activity.bad_date': 'Write the date as YYYY-MM-DD',
    'activity.bad_range': 'The end date cannot be before the start date',
    'activity.bad_page': 'The page must be a whole number from 1',
    'activity.bad_item': 'Choose an item from the list',
    'activity.bad_area': 'Choose an area from the list',
    'activity.new_signin_subject': 'New sign-in to your account {{account}}',
    'activity.new_signin_text':
      'Hello {{name}},\n\nSomeone signed in to your account {{account}} on {{date}} (UTC) from the address {{ip}} with {{agent}}, which we had not seen on your account before.\n\nIf it was you, there is nothing to do. If not, change your password at once and check the Activity page of the panel.',
  },
  ca: {
    'activity.bad_date': 'Escriu la data com a AAAA-MM-DD',
    'activity.bad_range': 'La data final no pot ser anterior a la inicial',
    'activity.bad_page': 'La pàgina ha de ser un nombre enter a partir d’1',
    'activity.bad_item': 'Tria un element de la llista',
    'activity.bad_area': 'Tria una àrea de la llista',
    'activity.new_signin_subject': 'Nou inici de sessió al teu compte {{account}}',
    'activity.new_signin_text':
      'Hola {{name}}:\n\nS’ha iniciat sessió al teu compte {{account}} el {{date}} (UTC) des de l’adreça {{ip}} amb {{agent}}, que no havíem vist abans al teu compte.\n\nSi has estat tu, no cal que facis res. Si no, canvia la contrasenya com més aviat millor i revisa la pàgina Activitat del tauler.',
  },
};
