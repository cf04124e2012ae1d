# text.awk: LINES lines of XML element content in one language, for
# bench/run.  awk -v lang=NAME -v lines=N -v seed=S, NAME one of en, latin,
# cjk, emoji, cyr, and the script families ce (Central European: Polish,
# Czech, Slovak, Hungarian, Croatian, Romanian), baltic (Lithuanian,
# Latvian, Estonian), tr (Turkish), vi (Vietnamese), el (Greek), arhe
# (Arabic and Hebrew), th (Thai, no spaces between words), ko (Korean),
# hi (Hindi: Devanagari, three bytes a letter, with combining vowel
# signs),
# mixed (markup-heavy: nested elements, comments, processing
# instructions, CDATA and references around short text in every script
# above but hi, so that its figures stay those of earlier runs)
# and dense (the same words with a comment, CDATA section or processing
# instruction around one word in two: one every 35 bytes or so).
# Every line is one element (markup on every line), with attributes, now
# and then an inline element, and from 2 to 40 words, so that the lines
# run from a few bytes to a few hundred.  The word lists are written for
# this file (the newer ones in UTF-8 as they are, read byte by byte with
# LC_ALL=C); the text means nothing, but its letters come as they do in
# real prose.  The output is UTF-8 with LF line ends; bench/run makes the
# other shapes from it.

function pick(list, n) {
	return list[int(rand() * n) + 1]
}

function word(  w) {
	if (lang == "latin") {
		# About one word in three carries an accent.
		if (rand() < 0.33)
			return pick(acc, nacc)
		return pick(plain, nplain)
	}
	if (lang == "emoji") {
		w = pick(en, nen)
		if (rand() < 0.5)
			w = w " " pick(emo, nemo)
		if (rand() < 0.2)
			w = w pick(emo, nemo)
		return w
	}
	if (lang == "cjk")
		return pick(cjk, ncjk)
	if (lang == "cyr")
		return pick(cyr, ncyr)
	if (lang in fam)
		return pick(famw, nfam)
	if (lang == "mixed")
		return mixed()
	if (lang == "dense")
		return dense()
	return pick(en, nen)
}

# mixed: a word of any script, or a piece of markup around one: mostly
# elements with attributes and references, now and then (one word in
# twenty-five) a comment, a CDATA section or a processing instruction.
function mixed(  r, w) {
	w = pick(mix, nmix)
	r = rand()
	if (r < 0.18)
		return "<b class=\"k" int(rand() * 9) "\">" w "</b>"
	if (r < 0.22)
		return "<a href=\"#s" int(rand() * 900) "\" title=\"" w "\">" w "</a>"
	if (r < 0.28)
		return w "&amp;&#x" sprintf("%X", 0x100 + int(rand() * 3000)) ";"
	if (r < 0.34)
		return "<i/>" w
	if (r < 0.36)
		return "<!-- " w " -->"
	if (r < 0.37)
		return "<![CDATA[" w " < " w "]]>"
	if (r < 0.38)
		return "<?pi " w "?>"
	return w
}

# dense: mixed's words, one in two in a comment, a CDATA section or a
# processing instruction, which the late lexer passes over whole.
function dense(  r, w) {
	w = pick(mix, nmix)
	r = rand()
	if (r < 0.25)
		return "<!-- " w " -->"
	if (r < 0.33)
		return "<![CDATA[" w "]]>"
	if (r < 0.5)
		return "<?pi " w "?>"
	if (r < 0.6)
		return "<b>" w "</b>"
	return w
}

function sentence(n,  s, i, sep) {
	sep = (lang == "cjk" || lang == "th") ? "" : " "
	s = word()
	for (i = 1; i < n; i++) {
		if (rand() < 0.08)
			s = s sep "<em>" word() "</em>"
		else if (rand() < 0.05)
			s = s sep "<a href=\"https://example.org/p/" int(rand() * 9000) "\">" word() "</a>"
		else if (lang == "cjk" && rand() < 0.12)
			s = s (rand() < 0.5 ? "\343\200\201" : " " int(rand() * 500) " ")
		else
			s = s sep word()
		if (lang != "cjk" && rand() < 0.07)
			s = s ","
	}
	return s ((lang == "cjk") ? "\343\200\202" : (lang == "th") ? " " : ".")
}

BEGIN {
	srand(seed)
	nen = split("the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there one all we their been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three states himself few house use during without again place around however home small found thought went say part once general high upon school every does got united left number course war until always away something fact though water less public put think almost hand enough far took head yet government system better set told nothing night end why called didn find going look asked later point knew city next program business give group toward young days let room president side social given present several order national possible rather second face per among form important often things looked early white case john become large big need four within felt along children saw best church ever least power development light thought family interest want members mind country area others done turned although open problem sense several kind began thus help order", en)
	nplain = split("le la les un une des et est dans pour avec sur pas plus tout mais comme nous vous elle ils sont dit bien sans sous chez aussi alors encore toujours jamais maison jardin soleil pain vin nuit main porte livre ville route der die das und ist nicht mit auf ein eine dem den sich auch noch nach wie aber oder wenn dann sehr Haus Stadt Zeit Weg Kind Hund Buch Wasser Land el los las una por con para pero como todo muy bien casa perro libro agua tierra noche calle mesa puerta mundo tiempo", plain)
	nacc = split("\303\251t\303\251 d\303\251j\303\240 \303\240 o\303\271 tr\303\250s apr\303\250s m\303\252me for\303\252t caf\303\251 h\303\264tel fen\303\252tre \303\251cole \303\251glise fran\303\247ais gar\303\247on na\303\257f No\303\253l ch\303\242teau r\303\252ve \303\251l\303\250ve pr\303\250s \303\274ber f\303\274r m\303\274ssen k\303\266nnen sch\303\266n gr\303\266\303\237er Stra\303\237e M\303\244dchen B\303\244ume \303\226l T\303\274r Br\303\274cke h\303\244ufig w\303\244hrend Gr\303\274\303\237e wei\303\237 a\303\261o ma\303\261ana ni\303\261o se\303\261or espa\303\261ol tambi\303\251n m\303\241s est\303\241 canci\303\263n coraz\303\263n \303\241rbol r\303\255o pa\303\255s m\303\272sica f\303\241cil s\303\255 qu\303\251 \302\277d\303\263nde \302\241hola", acc)
	ncjk = split("\346\227\245\346\234\254\350\252\236 \343\201\256 \343\201\257 \343\202\222 \343\201\253 \343\201\247 \343\201\214 \343\201\250 \346\235\261\344\272\254 \345\244\247\351\230\252 \344\274\232\347\244\276 \345\255\246\346\240\241 \346\226\260\350\201\236 \351\233\273\350\273\212 \345\244\251\346\260\227 \345\206\231\347\234\237 \351\237\263\346\245\275 \346\226\207\345\214\226 \343\203\206\343\202\255\343\202\271\343\203\210 \343\202\263\343\203\263\343\203\224\343\203\245\343\203\274\343\202\277 \343\203\207\343\203\274\343\202\277 \343\202\267\343\202\271\343\203\206\343\203\240 \343\201\202\343\202\212\343\201\276\343\201\231 \343\201\247\343\201\227\343\201\237 \343\201\227\343\201\276\343\201\231 \344\270\255\346\226\207 \345\214\227\344\272\254 \344\270\212\346\265\267 \346\225\260\346\215\256 \347\275\221\347\273\234 \350\275\257\344\273\266 \345\274\200\345\217\221 \346\234\215\345\212\241\345\231\250 \347\224\250\346\210\267 \351\227\256\351\242\230 \350\247\243\345\206\263 \346\226\271\346\263\225 \347\232\204 \345\234\250 \346\230\257 \346\210\221\344\273\254 \355\225\234\352\265\255\354\226\264 \354\204\234\354\232\270 \354\202\254\353\236\214 \355\225\231\352\265\220 \354\235\264 \352\260\200 \354\235\204 \353\212\224 \354\227\220\354\204\234 \355\225\251\353\213\210\353\213\244 \353\215\260\354\235\264\355\204\260 XML UTF-8 2024 OK", cjk)
	ncyr = split("\320\270 \320\262 \320\275\320\265 \320\275\320\260 \321\207\321\202\320\276 \320\276\320\275 \320\276\320\275\320\260 \320\272\320\260\320\272 \320\264\320\273\321\217 \321\215\321\202\320\276 \320\264\320\276\320\274 \320\263\320\276\321\200\320\276\320\264 \320\262\321\200\320\265\320\274\321\217 \320\263\320\276\320\264 \320\264\320\265\320\275\321\214 \321\200\321\203\320\272\320\260 \320\262\320\276\320\264\320\260 \320\272\320\275\320\270\320\263\320\260 \321\210\320\272\320\276\320\273\320\260 \321\203\320\273\320\270\321\206\320\260 \320\274\320\276\321\201\320\272\320\262\320\260 \321\200\320\260\320\261\320\276\321\202\320\260 \320\264\321\200\321\203\320\263 \320\266\320\270\320\267\320\275\321\214 \321\201\320\273\320\276\320\262\320\276 \320\275\320\276\321\207\321\214 \320\264\320\260\320\275\320\275\321\213\320\265 \321\204\320\260\320\271\320\273 \321\201\320\270\321\201\321\202\320\265\320\274\320\260 \320\277\321\200\320\276\320\263\321\200\320\260\320\274\320\274\320\260 \320\262\320\265\321\200\321\201\320\270\321\217 \320\272\320\276\320\264 \321\205\320\276\321\200\320\276\321\210\320\276 \320\261\321\213\321\201\321\202\321\200\320\276 \320\274\320\265\320\264\320\273\320\265\320\275\320\275\320\276 \320\261\320\276\320\273\321\214\321\210\320\276\320\271 \320\274\320\260\320\273\320\265\320\275\321\214\320\272\320\270\320\271 \320\275\320\276\320\262\321\213\320\271 \321\201\321\202\320\260\321\200\321\213\320\271", cyr)
	nemo = split("\360\237\230\200 \360\237\230\202 \360\237\230\215 \360\237\221\215 \360\237\216\211 \360\237\224\245 \360\237\232\200 \360\237\214\215 \360\237\215\225 \360\237\216\265 \360\237\220\266 \360\237\222\241 \360\237\223\246 \360\237\247\252 \360\237\244\226 \360\237\245\263 \360\237\214\210 \360\237\217\206 \360\237\223\210 \360\237\233\240", emo)
	# The script families: one list each, split into famw for lang.
	fam["ce"] = "że się jest być który już może także przez więc między ponieważ miasto człowiek życie świat dzień rzeka książka ulica szkoła pieniądze źródło gałąź łódź żółw mąka ręka głowa słońce wieś ogród zwierzę jeść mówić dziękuję proszę dobrze cześć když věc město řeka člověk život svět škola kniha přítel děkuji prosím všechno můžeme říct tři čtyři pět šest dům země slunce náměstí nádraží žena muž dítě ještě už také teď píše náš váš ďakujem ľudia môj kôň môže päť hovoriť dĺžka és hogy nem egy köszönöm szép város ház víz idő ember élet világ éjszaka iskola könyv barát tűz fű kő őszi győző szőlő gyönyörű fővárosa tündér ünnep öröm što čovjek država đak šuma kuća grad rijeka hvala molim jučer danas sutra și în că pentru este să țară oraș mulțumesc mâine școală carte stradă frumos lucru până învăța șase pâine câine fată băiat viață lume noapte"
	fam["baltic"] = "ir kad yra būti žmogus miestas upė knyga gatvė mokykla ačiū prašau labas gerai šalis žemė saulė vanduo dėkoju ąžuolas šešėlis ūkis įstatymas ežeras čia kaip tačiau šeima vaikas diena naktis ką kodėl un ka nav paldies lūdzu labdien pilsēta upe grāmata iela skola cilvēks dzīve pasaule nakts ūdens zeme ģimene ķēniņš ļoti ņemt šodien rīt vakar bērns māja draugs jūra ezers valoda latviešu mūzika ja on ei see aitäh palun tere linn jõgi raamat tänav kool inimene elu maailm päev öö vesi päike maa sõber õun küla hääl šokolaad žürii"
	fam["tr"] = "ve bir bu için çok değil ile daha gibi kadar şey sonra ama şimdi teşekkür ederim lütfen merhaba günaydın şehir nehir kitap sokak okul insan hayat dünya gün gece su güneş toprak arkadaş çocuk kız oğlan ağaç dağ İstanbul ışık öğretmen öğrenci üzüm çiçek şarkı müzik iş yıl değer görüş düşünce ülke kültür yaşam"
	fam["vi"] = "và của là có không được người những một trong cho với này đã các khi để nhiều thành phố sông sách đường trường cuộc sống thế giới ngày đêm nước mặt trời đất bạn trẻ em cảm ơn xin chào tiếng Việt học sinh giáo viên âm nhạc gia đình Hà Nội Sài Gòn phở bánh mì cà phê hôm nay ngày mai hôm qua đẹp tốt mới cũ lớn nhỏ nhà xe điện thoại máy tính"
	fam["el"] = "και το να είναι δεν για με που την της αλλά ευχαριστώ παρακαλώ γεια καλημέρα πόλη ποτάμι βιβλίο δρόμος σχολείο άνθρωπος ζωή κόσμος μέρα νύχτα νερό ήλιος γη φίλος παιδί σπίτι θάλασσα μουσική οικογένεια Αθήνα γλώσσα ελληνικά ώρα χρόνος ψωμί ξένος"
	fam["arhe"] = "في من على إلى أن هذا التي الذي مع كان شكرا مرحبا مدينة نهر كتاب شارع مدرسة إنسان حياة عالم يوم ليلة ماء شمس أرض صديق طفل بيت بحر موسيقى عائلة لغة العربية وقت خبز של את על זה לא עם הוא היא אני תודה שלום בבקשה עיר נהר ספר רחוב אדם חיים עולם יום לילה מים שמש ארץ חבר ילד בית ים מוזיקה משפחה שפה עברית זמן לחם"
	fam["th"] = "และ ของ ที่ เป็น ใน ไม่ มี ได้ ให้ กับ ขอบคุณ สวัสดี เมือง แม่น้ำ หนังสือ ถนน โรงเรียน คน ชีวิต โลก วัน กลางคืน น้ำ ดวงอาทิตย์ ดิน เพื่อน เด็ก บ้าน ทะเล ดนตรี ครอบครัว ภาษา ไทย เวลา ข้าว กรุงเทพ"
	fam["ko"] = "그리고 하지만 이것 저것 사람 도시 강 책 거리 학교 생활 세계 날 밤 물 태양 땅 친구 아이 집 바다 음악 가족 언어 한국어 시간 밥 감사합니다 안녕하세요 서울 부산 있다 없다 하다 되다 좋다 크다 작다 새로운 은 는 이 가 을 를 에서 으로"
	fam["hi"] = "और के है में की को से यह एक पर भी नहीं था कि तो हम आप वह लिए किया भारत सरकार लोग समय काम दिन साल बात घर पानी शहर देश भाषा हिंदी विद्यालय पुस्तक नदी सड़क जीवन दुनिया रात सूरज मित्र बच्चा परिवार संगीत धन्यवाद नमस्ते कृपया"
	if (lang in fam)
		nfam = split(fam[lang], famw, " ")
	if (lang == "mixed" || lang == "dense") {
		nmix = 0
		nf = split("ce baltic tr vi el arhe th ko", fl, " ")
		for (f = 1; f <= nf; f++) {
			k = split(fam[fl[f]], tw, " ")
			for (j = 1; j <= k; j += 7)
				mix[++nmix] = tw[j]
		}
		for (j = 1; j <= nen; j += 5)
			mix[++nmix] = en[j]
	}
	tags[1] = "p"; tags[2] = "item"; tags[3] = "note"; tags[4] = "title"
	tags[5] = "entry"; tags[6] = "desc"
	for (i = 0; i < lines; i++) {
		t = tags[int(rand() * 6) + 1]
		n = 2 + int(rand() * rand() * 39)
		if (t == "item")
			printf "  <item sku=\"%c%c-%05d\" qty=\"%d\">%s</item>\n",
			    65 + int(rand() * 26), 65 + int(rand() * 26),
			    int(rand() * 99999), int(rand() * 40), sentence(n)
		else if (t == "note")
			printf "  <note date=\"2024-%02d-%02d\">%s</note>\n",
			    1 + int(rand() * 12), 1 + int(rand() * 28),
			    sentence(n)
		else if (t == "title")
			printf "  <title>%s</title>\n", sentence(1 + int(n / 4))
		else
			printf "  <%s id=\"%s%d\">%s</%s>\n", t, lang, i,
			    sentence(n), t
	}
}
